// Locations from a server's answer (Location, Location[], LocationLink[] or null) as one flat list,
// rendered for the model as compact `file:line:col` lines with the source line, which reads in
// fewer tokens than the JSON and says more.
// Every URI goes through the jail: a location outside the workspace is named, never read.
import type { Location, LocationLink, Range } from "vscode-languageserver-protocol";
import { fromFileUri } from "../../lib/paths/file-uri.ts";
import { basename } from "../../lib/paths/posix-path.ts";
import { MAX_DOCUMENT_BYTES } from "../../lsp/lsp-service.ts";
import { splitLines } from "../../lsp/positions.ts";
import type { ToolContext } from "../../capabilities/context.ts";
import type { Verbosity } from "./position-input.ts";

export interface Place {
  uri: string;
  range: Range;
}

export function placesOf(answer: Location | Location[] | LocationLink[] | null | undefined): Place[] {
  if (answer === null || answer === undefined) return [];
  const list: (Location | LocationLink)[] = Array.isArray(answer) ? answer : [answer];
  return list.map((l) =>
    "targetUri" in l ? { uri: l.targetUri, range: l.targetSelectionRange ?? l.targetRange } : { uri: l.uri, range: l.range },
  );
}

/** Reads each file's lines once per call, through the jail. */
export class SourceLines {
  private readonly files = new Map<string, Promise<{ name: string; lines: string[] | undefined }>>();

  /**
   * `known`: a URI's root-relative name when it is known without the jail (a file the text search
   * listed from the root: verified-references.ts), for answers that show names only.
   */
  constructor(
    private readonly ctx: Pick<ToolContext, "fs" | "lsp">,
    private readonly known: (uri: string) => string | undefined = () => undefined,
  ) {}

  /** Root-relative name (or "(outside the workspace) base") and, unless `nameOnly`, the file's lines when inside. */
  async of(uri: string, nameOnly = false): Promise<{ name: string; lines: string[] | undefined }> {
    let found = this.files.get(uri);
    if (found === undefined) {
      const name = nameOnly ? this.known(uri) : undefined;
      found = (async () => {
        if (name !== undefined) return { name, lines: undefined };
        const path = await this.ctx.lsp.pathOf(uri);
        if (path === undefined) return { name: `(outside the workspace) ${basename(fromFileUri(uri) ?? uri)}`, lines: undefined };
        if (nameOnly) return { name: this.ctx.fs.relative(path), lines: undefined };
        // pathOf just resolved it through the jail: read without resolving it twice.
        const text = await this.ctx.fs.readResolvedText(path, { maxBytes: MAX_DOCUMENT_BYTES }).catch(() => undefined);
        return { name: this.ctx.fs.relative(path), lines: text === undefined ? undefined : splitLines(text) };
      })();
      this.files.set(uri, found);
    }
    return found;
  }
}

/** `file:line:col` (1-based), then the trimmed source line unless minimal; verbose adds the lines around. */
export async function renderPlaces(places: readonly Place[], opts: { sources: SourceLines; verbosity: Verbosity }): Promise<string[]> {
  const { sources, verbosity } = opts;
  const out: string[] = [];
  // Every file through the jail at once rather than one after another (hundreds for a reference list).
  await Promise.all([...new Set(places.map((p) => p.uri))].map((uri) => sources.of(uri, verbosity === "minimal")));
  for (const place of places) {
    const { name, lines } = await sources.of(place.uri, verbosity === "minimal");
    const line = place.range.start.line;
    const head = `${name}:${line + 1}:${place.range.start.character + 1}`;
    const text = lines?.[line];
    if (verbosity === "minimal" || text === undefined) {
      out.push(head);
    } else if (verbosity === "normal") {
      out.push(`${head}  ${clip(text.trim())}`);
    } else {
      out.push(head);
      for (let l = Math.max(0, line - 2); l <= Math.min((lines?.length ?? 0) - 1, line + 2); l++)
        out.push(`  ${l === line ? ">" : " "} ${l + 1} | ${clip(lines?.[l] ?? "")}`);
    }
  }
  return out;
}

/** Sorted by file, then position; duplicates (the same spot twice) dropped. */
export function sortPlaces(places: readonly Place[]): Place[] {
  const seen = new Set<string>();
  return [...places]
    .sort((a, b) =>
      a.uri === b.uri
        ? a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character
        : a.uri < b.uri
          ? -1
          : 1,
    )
    .filter((p) => {
      const key = `${p.uri}:${p.range.start.line}:${p.range.start.character}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}

const MAX_LINE_CHARS = 160;

function clip(text: string): string {
  return text.length > MAX_LINE_CHARS ? `${text.slice(0, MAX_LINE_CHARS)}…` : text;
}

/** The identifier at a position, for headers ("3 references to greet"). */
export function wordAt(lines: readonly string[], position: { line: number; character: number }): string {
  const { line, character } = position;
  const text = lines[line] ?? "";
  let start = character;
  let end = character;
  while (start > 0 && /[\p{L}\p{N}_$]/u.test(text[start - 1] ?? "")) start--;
  while (end < text.length && /[\p{L}\p{N}_$]/u.test(text[end] ?? "")) end++;
  return text.slice(start, end) || "the symbol";
}
