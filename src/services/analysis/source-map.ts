// Source map v3 (https://tc39.es/ecma426/): the lookup of a generated position, so a frame in built
// JavaScript names the line of the source it came from. The decoding is src/lib/source-map/'s.
import { dirname, normalize } from "../../lib/paths/posix-path.ts";
import { decodeMappings, parseMapUrl, type MappedSegment, type RawSourceMap } from "../../lib/source-map/mappings.ts";
import { decodeVlq } from "../../lib/source-map/vlq.ts";

export { decodeVlq };
export type { RawSourceMap };

export interface OriginalPosition {
  /** As the map names it, joined with its sourceRoot. */
  source: string;
  /** 1-based. */
  line: number;
  /** 1-based. */
  column: number;
  name?: string;
}

export class SourceMap {
  private readonly lines: MappedSegment[][];

  constructor(private readonly raw: RawSourceMap) {
    if (raw.version !== 3) throw new Error(`source map version ${raw.version} is not 3`);
    this.lines = decodeMappings(raw.mappings ?? "", raw.sources?.length ?? 0).byGenerated;
  }

  /** The source position of a generated 1-based line and column (the segment at or before it; the line's first without a column). */
  originalOf(line: number, column: number | undefined): OriginalPosition | undefined {
    const segments = this.lines[line - 1] ?? [];
    let found = segments[0];
    if (column !== undefined) for (const s of segments) if (s.genColumn <= column - 1) found = s;
    if (found === undefined) return undefined;
    const source = this.raw.sources?.[found.source];
    if (typeof source !== "string") return undefined;
    const name = found.name === undefined ? undefined : this.raw.names?.[found.name];
    const root = this.raw.sourceRoot ?? "";
    return {
      source: root === "" ? source : `${root.replace(/\/$/, "")}/${source}`,
      line: found.line + 1,
      column: found.column + 1,
      ...(name === undefined ? {} : { name }),
    };
  }
}

/** The map a generated file names in its last `sourceMappingURL` comment: inline (data: URL) or a path next to it. */
export function mapReference(generatedText: string): { inline: RawSourceMap } | { path: string } | undefined {
  const matches = [...generatedText.matchAll(/[#@]\s*sourceMappingURL=(\S+)/g)];
  const url = matches[matches.length - 1]?.[1];
  return url === undefined ? undefined : parseMapUrl(url);
}

/** A path the map names (a source, or the map itself), relative to the root, from the file that names it. */
export function besideFile(fromFile: string, path: string): string {
  if (path.startsWith("file://") && URL.canParse(path)) return decodeURIComponent(new URL(path).pathname);
  if (path.startsWith("/")) return path;
  return normalize(`${dirname(fromFile)}/${path}`);
}
