// The refactorings language servers offer for a selection (extract function, constant, type, move
// to a file, inline, convert...): their refactor.* code actions. A language can have several
// servers: when the first that answers code actions offers no refactoring (tsgo offers none), the
// next is asked (typescript-language-server), and the answer names which server answered and who
// had none.
import * as v from "valibot";
import type { CodeAction, Command, Range } from "vscode-languageserver-protocol";
import type { ToolContext } from "../../capabilities/context.ts";
import { ToolError } from "../../errors.ts";
import type { LspDocument } from "../../lsp/lsp-service.ts";

const METHOD = "textDocument/codeAction";
const line = (what: string) => v.pipe(v.number(), v.integer(), v.minValue(1), v.description(what));

export const selectionFields = {
  file: v.pipe(v.string(), v.minLength(1), v.description("Relative or absolute path.")),
  startLine: line("1-based first line selected."),
  endLine: v.optional(line("Inclusive last line (default startLine).")),
  startColumn: v.optional(line("1-based column the selection starts at (default: the line's first non-blank).")),
  endColumn: v.optional(line("1-based column just past the selection's end (default: the end of endLine).")),
};

export interface SelectionInput {
  file: string;
  startLine: number;
  endLine?: number | undefined;
  startColumn?: number | undefined;
  endColumn?: number | undefined;
}

export interface RefactorsAt {
  doc: LspDocument;
  range: Range;
  /** "12:3-14:20", 1-based, for messages. */
  where: string;
  actions: CodeAction[];
  /** Servers asked before this one that offered none. */
  without: string[];
}

export async function refactorsAt(input: SelectionInput, ctx: ToolContext): Promise<RefactorsAt> {
  const without: string[] = [];
  const skip: string[] = [];
  let last: RefactorsAt | undefined;
  for (;;) {
    let doc: LspDocument;
    try {
      doc = await ctx.lsp.document(input.file, {
        method: METHOD,
        signal: ctx.signal,
        skip,
        onProgress: (message) => ctx.progress(0, { message }),
      });
    } catch (err) {
      // No further server of the language: the last one's (empty) answer stands.
      if (last !== undefined && err instanceof ToolError && (err.code === "not_supported" || err.code === "no_language_server"))
        return last;
      throw err;
    }
    const range = selectionRange(doc.lines, input, doc.relative);
    const answer =
      (await doc.request<(CodeAction | Command)[] | null>(METHOD, {
        textDocument: { uri: doc.uri },
        range,
        context: { diagnostics: [], only: ["refactor"], triggerKind: 1 },
      })) ?? [];
    const actions = answer.filter((a): a is CodeAction => "kind" in a && typeof a.kind === "string" && a.kind.startsWith("refactor"));
    const where = `${range.start.line + 1}:${range.start.character + 1}-${range.end.line + 1}:${range.end.character + 1}`;
    last = { doc, range, where, actions, without: [...without] };
    if (actions.some((a) => a.disabled === undefined)) return last;
    without.push(doc.server.serverName);
    skip.push(doc.server.launch.spec.id);
  }
}

function selectionRange(lines: readonly string[], input: SelectionInput, file: string): Range {
  const endLine = input.endLine ?? input.startLine;
  if (input.startLine > lines.length || endLine < input.startLine || endLine > lines.length)
    throw new ToolError("invalid_arguments", `lines ${input.startLine}-${endLine} are not a range of ${file} (${lines.length} lines)`, {
      suggestion: `Pass startLine <= endLine within 1-${lines.length}.`,
    });
  const first = lines[input.startLine - 1] ?? "";
  const lastLine = lines[endLine - 1] ?? "";
  const start = input.startColumn === undefined ? first.length - first.trimStart().length : Math.min(input.startColumn - 1, first.length);
  const end = input.endColumn === undefined ? lastLine.trimEnd().length : Math.min(input.endColumn - 1, lastLine.length);
  return { start: { line: input.startLine - 1, character: start }, end: { line: endLine - 1, character: end } };
}

/** "tsgo had none; " when a server before the one that answered offered no refactoring. */
export function fallbackNote(at: RefactorsAt): string {
  return at.without.length === 0 ? "" : ` (${at.without.join(", ")} offered none)`;
}
