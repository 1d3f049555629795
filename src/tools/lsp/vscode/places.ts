// A position-taking question asked of VS Code's language features instead of the bridge's servers:
// the model's {file, line, symbol|column} is placed on the text VS Code holds (unsaved edits
// included), and the places it answers are sorted as the headless answer's are.
import { ToolError } from "../../../errors.ts";
import type { LanguageFeature, ParamsOf, ResultOf } from "../../../extension/protocol.ts";
import { fromFileUri, toFileUri } from "../../../lib/paths/file-uri.ts";
import { lspPosition, splitLines, type PositionInput } from "../../../lsp/positions.ts";
import type { ToolContext } from "../../../capabilities/context.ts";
import { SourceLines, sortPlaces, wordAt, type Place } from "../locations.ts";

const FEATURES: Readonly<Record<string, LanguageFeature>> = {
  "textDocument/definition": "definition",
  "textDocument/declaration": "declaration",
  "textDocument/typeDefinition": "typeDefinition",
  "textDocument/implementation": "implementation",
  "textDocument/references": "references",
};

/** Where a position-taking call points, placed on VS Code's text of the file. */
export interface VsCodeAt {
  uri: string;
  relative: string;
  position: { line: number; character: number };
  /** The symbol's name (given, or the word at the position). */
  name: string;
  /** `file:line:col`, 1-based, for headers. */
  where: string;
  /** "NOTE: …\n" when the symbol was found on another line than the one given; else "". */
  note: string;
}

export async function placeInVsCode(input: PositionInput & { file: string }, ctx: ToolContext): Promise<VsCodeAt> {
  const path = await ctx.fs.resolve(input.file);
  const relative = ctx.fs.relative(path);
  const doc = await ctx.extension.request("extension/readDocument", { filePath: path }, { signal: ctx.signal });
  const lines = splitLines(doc.text);
  const { position, note } = lspPosition(lines, input, { file: relative });
  return {
    uri: toFileUri(path),
    relative,
    position,
    name: input.symbol ?? wordAt(lines, position),
    where: `${relative}:${position.line + 1}:${position.character + 1}`,
    note: note === undefined ? "" : `NOTE: ${note}\n`,
  };
}

/** What is asked at a placed position: the feature and its options. */
export interface FeatureAt {
  feature: LanguageFeature;
  directions?: ParamsOf<"extension/languageFeature">["directions"];
  depth?: number;
  maxResults?: number;
}

/** One extension/languageFeature request at a placed position. */
export function askFeature(at: VsCodeAt, ctx: ToolContext, params: FeatureAt): Promise<ResultOf<"extension/languageFeature">> {
  return ctx.extension.request("extension/languageFeature", { ...params, uri: at.uri, position: at.position }, { signal: ctx.signal });
}

export async function askVsCode(
  input: PositionInput & { file: string },
  ctx: ToolContext,
  opts: { method: string },
): Promise<{ places: Place[]; name: string; where: string; note: string }> {
  const feature = FEATURES[opts.method];
  if (feature === undefined)
    throw new ToolError("not_supported", `${opts.method} is not asked of VS Code`, { suggestion: "Report this as a bridge bug." });
  const at = await placeInVsCode(input, ctx);
  const answer = await askFeature(at, ctx, { feature });
  return { places: sortPlaces(answer.places ?? []), name: at.name, where: at.where, note: at.note };
}

/**
 * The files VS Code's answers name, read through the jail: not through the language servers' own
 * mapping (ctx.lsp), which answers nothing when the bridge runs none.
 */
export function vsCodeSources(ctx: ToolContext): SourceLines {
  const pathOf = async (uri: string) => {
    const path = fromFileUri(uri);
    return path === undefined ? undefined : ctx.fs.resolve(path).catch(() => undefined);
  };
  return new SourceLines({ fs: ctx.fs, lsp: { ...ctx.lsp, pathOf } });
}
