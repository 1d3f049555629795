// A position-taking question asked of VS Code's language features instead of the bridge's servers:
// the model's {file, line, symbol|column} is placed on the text VS Code holds (unsaved edits
// included), and the places it answers are sorted as the headless answer's are.
import { ToolError } from "../../errors.ts";
import type { LanguageFeature } from "../../extension/protocol.ts";
import { toFileUri } from "../../lib/paths/file-uri.ts";
import { lspPosition, splitLines, type PositionInput } from "../../lsp/positions.ts";
import type { ToolContext } from "../../capabilities/context.ts";
import { sortPlaces, wordAt, type Place } from "./locations.ts";

const FEATURES: Readonly<Record<string, LanguageFeature>> = {
  "textDocument/definition": "definition",
  "textDocument/declaration": "declaration",
  "textDocument/typeDefinition": "typeDefinition",
  "textDocument/implementation": "implementation",
  "textDocument/references": "references",
};

export async function askVsCode(
  input: PositionInput & { file: string },
  ctx: ToolContext,
  opts: { method: string },
): Promise<{ places: Place[]; name: string; where: string; note: string }> {
  const feature = FEATURES[opts.method];
  if (feature === undefined)
    throw new ToolError("not_supported", `${opts.method} is not asked of VS Code`, { suggestion: "Report this as a bridge bug." });
  const path = await ctx.fs.resolve(input.file);
  const relative = ctx.fs.relative(path);
  const doc = await ctx.extension.request("extension/readDocument", { filePath: path }, { signal: ctx.signal });
  const lines = splitLines(doc.text);
  const { position, note } = lspPosition(lines, input, { file: relative });
  const answer = await ctx.extension.request(
    "extension/languageFeature",
    { feature, uri: toFileUri(path), position },
    { signal: ctx.signal },
  );
  return {
    places: sortPlaces(answer.places ?? []),
    name: input.symbol ?? wordAt(lines, position),
    where: `${relative}:${position.line + 1}:${position.character + 1}`,
    note: note === undefined ? "" : `NOTE: ${note}\n`,
  };
}
