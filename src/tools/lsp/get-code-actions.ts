// getCodeActions: the quick fixes and refactorings a language server offers for a line range
// (with the diagnostics there), listed by title for previewCodeAction/applyCodeAction (phase 2).
import * as v from "valibot";
import type { CodeAction, Command, Diagnostic, Range } from "vscode-languageserver-protocol";
import { ToolError } from "../../errors.ts";
import { defineTool } from "../define-tool.ts";
import { openDocument } from "./at-position.ts";
import { diagnosticLine } from "./diagnostic-lines.ts";

const line = (what: string) => v.pipe(v.number(), v.integer(), v.minValue(1), v.description(what));

export default defineTool({
  name: "getCodeActions",
  title: "Code actions",
  description: "Lists the quick fixes and refactorings the language server offers for a line range (fix error, add import, extract function), by title, with the diagnostics there.",
  searchHint: "code actions quick fix fix error suggestions refactor add missing import lightbulb",
  input: v.strictObject({
    file: v.pipe(v.string(), v.minLength(1), v.description("File path, relative to the workspace root, absolute, or a file:// URI.")),
    startLine: line("First line of the range (1-based)."),
    endLine: v.optional(line("Last line of the range (inclusive; default startLine).")),
    only: v.optional(v.pipe(v.array(v.string()), v.description('Only these kinds, e.g. ["quickfix"], ["refactor"], ["source.organizeImports"].'))),
  }),
  annotations: { readOnlyHint: true },
  // The first call on a file may start its language server.
  timeoutMs: 60_000,
  slim: true,
  async handler(input, ctx) {
    const doc = await openDocument(input.file, ctx, "textDocument/codeAction");
    const endLine = input.endLine ?? input.startLine;
    if (input.startLine > doc.lines.length || endLine < input.startLine) {
      throw new ToolError("invalid_arguments", `lines ${input.startLine}-${endLine} are not a range of ${doc.relative} (${doc.lines.length} lines)`, { suggestion: `Pass startLine <= endLine within 1-${doc.lines.length}.` });
    }
    const last = Math.min(endLine, doc.lines.length);
    const range: Range = { start: { line: input.startLine - 1, character: 0 }, end: { line: last - 1, character: (doc.lines[last - 1] ?? "").length } };
    const diagnostics = (await ctx.lsp.diagnosticsFor(doc.path, { signal: ctx.signal })).items.filter((d) => d.range.start.line <= range.end.line && d.range.end.line >= range.start.line);
    const actions = (await doc.request<(CodeAction | Command)[] | null>("textDocument/codeAction", { textDocument: { uri: doc.uri }, range, context: { diagnostics, triggerKind: 1, ...(input.only ? { only: input.only } : {}) } })) ?? [];
    const head = diagnostics.length > 0 ? `Diagnostics in lines ${input.startLine}-${last}:\n${diagnostics.map((d: Diagnostic) => `  ${diagnosticLine(doc.relative, d)}`).join("\n")}\n` : "";
    if (actions.length === 0) return `${head}No code actions for ${doc.relative} lines ${input.startLine}-${last} (${doc.server.serverName}).`;
    const lines = actions.map((a, i) => {
      if (!("kind" in a) && "command" in a && typeof a.command === "string") return `${i + 1}. ${a.title} (command)`;
      const action = a as CodeAction;
      const flags = [action.isPreferred ? "preferred" : "", action.disabled ? `disabled: ${action.disabled.reason}` : ""].filter((f) => f !== "");
      return `${i + 1}. [${action.kind ?? "action"}] ${action.title}${flags.length > 0 ? ` (${flags.join(", ")})` : ""}`;
    });
    return `${head}${actions.length} code action${actions.length === 1 ? "" : "s"} for ${doc.relative} lines ${input.startLine}-${last}:\n${lines.join("\n")}`;
  },
});
