// explainDiagnostic: a diagnostic with what it takes to fix it, in one answer: the message and
// code, the source ±10 lines around it, the definition of the symbol it points at, up to 5
// callers of the function it is in (what a fix may affect), and the fixes the server offers.
import * as v from "valibot";
import type { CodeAction, Command, Diagnostic } from "vscode-languageserver-protocol";
import { ToolError } from "../../errors.ts";
import { diagnosticLine } from "../../services/diagnostics/diagnostic-lines.ts";
import { defineTool } from "../platform/define-tool.ts";
import { openAt } from "./at-position.ts";
import { enclosingFunction } from "./enclosing-function.ts";
import { SourceLines } from "./locations.ts";
import { callersOf, definitionLines, section } from "./symbol-facts.ts";

const CONTEXT_LINES = 10;
const MAX_CALLERS = 5;

export default defineTool({
  name: "explainDiagnostic",
  title: "Explain a diagnostic",
  description:
    "Explains an error or warning at a line: the diagnostic, ±10 lines of code, the definition involved, up to 5 callers of its function, and the fixes on offer.",
  searchHint: "explain error diagnostic why is this an error how to fix compiler error context quick fixes",
  input: v.strictObject({
    file: v.pipe(v.string(), v.minLength(1), v.description("Relative or absolute path.")),
    line: v.pipe(v.number(), v.integer(), v.minValue(1), v.description("1-based line of the diagnostic.")),
    code: v.optional(v.pipe(v.string(), v.description("Its code, when the line has several."))),
  }),
  annotations: { readOnlyHint: true },
  timeoutMs: 120_000,
  async handler(input, ctx) {
    const found = await ctx.lsp.diagnosticsFor(input.file, { signal: ctx.signal, onProgress: (message) => ctx.progress(0, { message }) });
    const onLine = found.items.filter((d) => d.range.start.line === input.line - 1);
    const picked = input.code === undefined ? onLine : onLine.filter((d) => String(d.code) === input.code);
    const diagnostic = picked.sort((a, b) => (a.severity ?? 1) - (b.severity ?? 1))[0];
    if (diagnostic === undefined) {
      const near = found.items.slice(0, 5).map((d) => diagnosticLine(found.relative, d));
      throw new ToolError(
        "invalid_arguments",
        `No diagnostic${input.code ? ` with code ${input.code}` : ""} on ${found.relative}:${input.line} (${found.server})`,
        {
          suggestion: near.length > 0 ? `The file has: ${near.join("; ")}` : "getDiagnostics lists the file's diagnostics.",
        },
      );
    }
    const { line, character } = diagnostic.range.start;
    const at = await openAt({ file: found.relative, line: line + 1, column: character + 1 }, ctx, { method: "textDocument/definition" });
    const sources = new SourceLines(ctx);
    const enclosing = await enclosingFunction(at.doc, line);
    const callerAt =
      enclosing === undefined
        ? undefined
        : await openAt({ file: found.relative, line: enclosing.line + 1, column: enclosing.character + 1 }, ctx, {
            method: "textDocument/hover",
          });
    const [definition, callers, fixes] = await Promise.all([
      definitionLines(at, sources),
      callerAt === undefined ? undefined : callersOf(ctx, callerAt, { max: MAX_CALLERS, sources }),
      fixesFor(at.doc, diagnostic),
    ]);
    const out = [
      diagnosticLine(found.relative, diagnostic),
      ...(found.current ? [] : [`NOTE: ${found.why ?? "the diagnostics may be stale"}`]),
    ];
    out.push(
      `Code (${found.relative} lines ${Math.max(1, line + 1 - CONTEXT_LINES)}-${Math.min(at.doc.lines.length, line + 1 + CONTEXT_LINES)}):`,
    );
    for (let l = Math.max(0, line - CONTEXT_LINES); l <= Math.min(at.doc.lines.length - 1, line + CONTEXT_LINES); l++)
      out.push(`  ${l === line ? ">" : " "} ${l + 1} | ${at.doc.lines[l]}`);
    out.push(...section(`Definition of \`${at.name}\``, definition, { render: (lines) => lines }));
    if (callers === undefined || enclosing === undefined) out.push("Callers: the diagnostic is not inside a function");
    else
      out.push(
        ...section(`Callers of ${enclosing.name}`, callers, {
          render: (c) => [
            ...c.lines,
            ...(c.total > c.lines.length ? [`… ${c.total - c.lines.length} more`] : []),
            ...(c.complete ? [] : [`(PARTIAL: ${c.why})`]),
          ],
        }),
      );
    out.push(...section("Fixes on offer", fixes, { render: (titles) => titles.map((t) => `"${t}"`) }));
    if ("value" in fixes && fixes.value.length > 0) out.push(`Apply one with applyCodeAction (file, startLine: ${line + 1}, title).`);
    return out.join("\n");
  },
});

async function fixesFor(
  doc: Awaited<ReturnType<typeof openAt>>["doc"],
  diagnostic: Diagnostic,
): Promise<{ value: string[] } | { missing: string }> {
  if (!doc.server.supports("textDocument/codeAction")) return { missing: `${doc.server.serverName} has no textDocument/codeAction` };
  const actions =
    (await doc
      .request<(CodeAction | Command)[] | null>("textDocument/codeAction", {
        textDocument: { uri: doc.uri },
        range: diagnostic.range,
        context: { diagnostics: [diagnostic], only: ["quickfix"], triggerKind: 1 },
      })
      .catch(() => null)) ?? [];
  return { value: actions.map((a) => a.title) };
}
