// Opens the file of a position-taking call in the server that answers `method`, and turns the
// model's {line, symbol, column} into an LSP position, with the note the answer must carry when
// the symbol was found on another line than the one given.
import type { Position } from "vscode-languageserver-protocol";
import type { LspDocument } from "../../lsp/lsp-service.ts";
import { lspPosition, type PositionInput } from "../../lsp/positions.ts";
import type { ToolContext } from "../../capabilities/context.ts";
import { openDocument } from "../../services/language/open-document.ts";
import { wordAt } from "./locations.ts";

interface AtPosition {
  doc: LspDocument;
  position: Position;
  /** The identifier at the position, for headers. */
  name: string;
  /** textDocument + position, as most requests take them. */
  params: { textDocument: { uri: string }; position: Position };
  /** "NOTE: ...\n" when the symbol was not on the given line, else "": every answer starts with it. */
  note: string;
}

export async function openAt(input: PositionInput & { file: string }, ctx: ToolContext, opts: { method: string }): Promise<AtPosition> {
  const doc = await openDocument(input.file, ctx, opts);
  const located = lspPosition(doc.lines, input, { file: doc.relative });
  const position = located.position;
  // A located symbol is asked about one character in: some servers (bash-language-server) find
  // nothing at a word's first column when it is the line's first.
  const asked =
    input.symbol !== undefined && input.symbol.length > 1 ? { line: position.line, character: position.character + 1 } : position;
  return {
    doc,
    position,
    name: input.symbol ?? wordAt(doc.lines, position),
    params: { textDocument: { uri: doc.uri }, position: asked },
    note: located.note === undefined ? "" : `NOTE: ${located.note}\n`,
  };
}

/** The line a result starts with when the server may not have said everything. */
export function partialNote(answer: { complete: boolean; why?: string }): string {
  return answer.complete ? "" : `PARTIAL: ${answer.why ?? "the server was not ready"}; call again for the complete answer.\n`;
}
