// Source map v3 (https://tc39.es/ecma426/): the decoding of `mappings` (base64 VLQ) and the
// lookup of a generated position, so a frame in built JavaScript names the line of the source it
// came from. Hand-written: the format is small and fixed, and the core takes no dependency for it.
import { dirname, normalize } from "../../lib/paths/posix-path.ts";
import { decodeVlq } from "../../lib/source-map/vlq.ts";

export { decodeVlq };

export interface RawSourceMap {
  version: number;
  sources: string[];
  sourceRoot?: string;
  names?: string[];
  mappings: string;
}

export interface OriginalPosition {
  /** As the map names it, joined with its sourceRoot. */
  source: string;
  /** 1-based. */
  line: number;
  /** 1-based. */
  column: number;
  name?: string;
}

/** [generatedColumn, sourceIndex, sourceLine, sourceColumn, nameIndex?], all 0-based. */
type Segment = [number, number, number, number, number?];

export class SourceMap {
  private readonly lines: Segment[][] = [];

  constructor(private readonly raw: RawSourceMap) {
    if (raw.version !== 3) throw new Error(`source map version ${raw.version} is not 3`);
    // Source, line, column and name are deltas across the whole map; the column resets per line.
    let source = 0;
    let sourceLine = 0;
    let sourceColumn = 0;
    let name = 0;
    for (const lineText of raw.mappings.split(";")) {
      const segments: Segment[] = [];
      let column = 0;
      for (const part of lineText.split(",")) {
        if (part === "") continue;
        const fields = decodeVlq(part);
        column += fields[0] ?? 0;
        if (fields.length < 4) continue;
        source += fields[1] ?? 0;
        sourceLine += fields[2] ?? 0;
        sourceColumn += fields[3] ?? 0;
        if (fields.length >= 5) name += fields[4] ?? 0;
        segments.push(fields.length >= 5 ? [column, source, sourceLine, sourceColumn, name] : [column, source, sourceLine, sourceColumn]);
      }
      this.lines.push(segments.sort((a, b) => a[0] - b[0]));
    }
  }

  /** The source position of a generated 1-based line and column (the segment at or before it; the line's first without a column). */
  originalOf(line: number, column: number | undefined): OriginalPosition | undefined {
    const segments = this.lines[line - 1] ?? [];
    let found = segments[0];
    if (column !== undefined) for (const s of segments) if (s[0] <= column - 1) found = s;
    if (found === undefined) return undefined;
    const source = this.raw.sources[found[1]];
    if (source === undefined) return undefined;
    const name = found[4] === undefined ? undefined : this.raw.names?.[found[4]];
    const root = this.raw.sourceRoot ?? "";
    return {
      source: root === "" ? source : `${root.replace(/\/$/, "")}/${source}`,
      line: found[2] + 1,
      column: found[3] + 1,
      ...(name === undefined ? {} : { name }),
    };
  }
}

/** The map a generated file names in its last `sourceMappingURL` comment: inline (data: URL) or a path next to it. */
export function mapReference(generatedText: string): { inline: RawSourceMap } | { path: string } | undefined {
  const matches = [...generatedText.matchAll(/[#@]\s*sourceMappingURL=(\S+)/g)];
  const url = matches[matches.length - 1]?.[1];
  if (url === undefined) return undefined;
  const inline = /^data:application\/json[^,]*?(;base64)?,(.*)$/.exec(url);
  if (inline === null) return { path: decodeURIComponent(url) };
  const body = inline[1] === undefined ? decodeURIComponent(inline[2] ?? "") : new TextDecoder().decode(base64Bytes(inline[2] ?? ""));
  return { inline: JSON.parse(body) as RawSourceMap };
}

/** A path the map names (a source, or the map itself), relative to the root, from the file that names it. */
export function besideFile(fromFile: string, path: string): string {
  if (path.startsWith("file://") && URL.canParse(path)) return decodeURIComponent(new URL(path).pathname);
  if (path.startsWith("/")) return path;
  return normalize(`${dirname(fromFile)}/${path}`);
}

function base64Bytes(text: string): Uint8Array {
  const binary = atob(text);
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}
