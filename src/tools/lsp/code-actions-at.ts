// The code actions a server offers for a line range, with the diagnostics there: what
// getCodeActions lists and previewCodeAction/applyCodeAction pick from by title.
import * as v from "valibot";
import type { CodeAction, Command, Diagnostic, Range } from "vscode-languageserver-protocol";
import { ToolError } from "../../errors.ts";
import type { LspDocument } from "../../lsp/lsp-service.ts";
import type { ToolContext } from "../../capabilities/context.ts";
import { openDocument } from "../../services/language/open-document.ts";

const line = (what: string) => v.pipe(v.number(), v.integer(), v.minValue(1), v.description(what));

export const rangeFields = {
  file: v.pipe(v.string(), v.minLength(1), v.description("Relative or absolute path.")),
  startLine: line("1-based first line."),
  endLine: v.optional(line("Inclusive last line.")),
  only: v.optional(v.pipe(v.array(v.string()), v.description('Kinds, e.g. ["quickfix"].'))),
};

export interface RangeInput {
  file: string;
  startLine: number;
  endLine?: number | undefined;
  only?: string[] | undefined;
}

interface ActionsAt {
  doc: LspDocument;
  range: Range;
  /** 1-based, for messages. */
  lines: string;
  diagnostics: Diagnostic[];
  actions: (CodeAction | Command)[];
}

export async function codeActionsAt(input: RangeInput, ctx: ToolContext): Promise<ActionsAt> {
  const doc = await openDocument(input.file, ctx, { method: "textDocument/codeAction" });
  const endLine = input.endLine ?? input.startLine;
  if (input.startLine > doc.lines.length || endLine < input.startLine) {
    throw new ToolError(
      "invalid_arguments",
      `lines ${input.startLine}-${endLine} are not a range of ${doc.relative} (${doc.lines.length} lines)`,
      { suggestion: `Pass startLine <= endLine within 1-${doc.lines.length}.` },
    );
  }
  const last = Math.min(endLine, doc.lines.length);
  const range: Range = {
    start: { line: input.startLine - 1, character: 0 },
    end: { line: last - 1, character: (doc.lines[last - 1] ?? "").length },
  };
  const diagnostics = (await ctx.lsp.diagnosticsFor(doc.path, { signal: ctx.signal })).items.filter(
    (d) => d.range.start.line <= range.end.line && d.range.end.line >= range.start.line,
  );
  const actions =
    (await doc.request<(CodeAction | Command)[] | null>("textDocument/codeAction", {
      textDocument: { uri: doc.uri },
      range,
      context: { diagnostics, triggerKind: 1, ...(input.only ? { only: input.only } : {}) },
    })) ?? [];
  return { doc, range, lines: `${input.startLine}-${last}`, diagnostics, actions };
}

/** A Command given where a CodeAction may be (the older form of a code action). */
export function isCommand(action: CodeAction | Command): action is Command {
  return !("kind" in action) && "command" in action && typeof action.command === "string";
}

/** The one action whose title is `title` (exactly, then ignoring case, then containing it); else why not, with what is offered. */
export function pickAction<A extends { title: string }>(actions: readonly A[], opts: { title: string; where: string }): A {
  const { title, where } = opts;
  const wanted = title.trim().toLowerCase();
  const exact = actions.filter((a) => a.title === title);
  const same = exact.length > 0 ? exact : actions.filter((a) => a.title.toLowerCase() === wanted);
  const found = same.length > 0 ? same : actions.filter((a) => a.title.toLowerCase().includes(wanted));
  const first = found[0];
  if (found.length === 1 && first !== undefined) return first;
  const offered = actions.map((a) => `"${a.title}"`).join(", ") || "none";
  if (found.length === 0)
    throw new ToolError("code_action_not_found", `No code action titled "${title}" for ${where}; offered: ${offered}`, {
      suggestion: "Pass one of the offered titles (getCodeActions lists them), or another line range.",
    });
  throw new ToolError(
    "code_action_not_found",
    `"${title}" matches ${found.length} code actions for ${where}: ${found.map((a) => `"${a.title}"`).join(", ")}`,
    { suggestion: "Pass the whole title of the one you mean." },
  );
}
