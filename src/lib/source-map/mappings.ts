// Source map v3 (https://tc39.es/ecma426/), the parts every reader needs: the `mappings` decoded into
// segments, indexed by generated line and by source, and a `sourceMappingURL` value read as an
// inline map or a path. Shared by the analysis service (stack frames of built JavaScript) and the
// Node debugger (breakpoints in TypeScript), which sit in layers that cannot import each other.
import { decodeVlq } from "./vlq.ts";

export interface RawSourceMap {
  version?: number;
  file?: string;
  sourceRoot?: string;
  sources?: unknown[];
  names?: string[];
  mappings?: string;
}

/** One mapping; every field 0-based, `name` an index into the map's names. */
export interface MappedSegment {
  genLine: number;
  genColumn: number;
  source: number;
  line: number;
  column: number;
  name?: number;
}

export interface DecodedMappings {
  /** Per generated line, its segments by column. */
  byGenerated: MappedSegment[][];
  /** Per source index, its segments in generated order. */
  bySource: MappedSegment[][];
}

/** Throws on a character that is not base64 VLQ. */
export function decodeMappings(mappings: string, sourceCount: number): DecodedMappings {
  const byGenerated: MappedSegment[][] = [];
  const bySource: MappedSegment[][] = Array.from({ length: sourceCount }, () => []);
  // Source, line, column and name are deltas across the whole map; the column resets per line.
  let source = 0;
  let line = 0;
  let column = 0;
  let name = 0;
  mappings.split(";").forEach((text, genLine) => {
    const row: MappedSegment[] = [];
    let genColumn = 0;
    for (const field of text.split(",")) {
      if (field === "") continue;
      const values = decodeVlq(field);
      genColumn += values[0] ?? 0;
      if (values.length < 4) continue;
      source += values[1] ?? 0;
      line += values[2] ?? 0;
      column += values[3] ?? 0;
      const segment: MappedSegment = { genLine, genColumn, source, line, column };
      if (values.length >= 5) {
        name += values[4] ?? 0;
        segment.name = name;
      }
      row.push(segment);
      bySource[source]?.push(segment);
    }
    byGenerated[genLine] = row.sort((a, b) => a.genColumn - b.genColumn);
  });
  return { byGenerated, bySource };
}

/**
 * A `sourceMappingURL` value: an inline map (a data: URL, base64 or percent-encoded), or a path
 * (relative, absolute or file://, as written); undefined for other schemes, which are never fetched.
 * Throws when an inline map is not JSON.
 */
export function parseMapUrl(url: string): { inline: RawSourceMap } | { path: string } | undefined {
  const inline = /^data:application\/json[^,]*?(;base64)?,(.*)$/s.exec(url);
  if (inline !== null) {
    const body = inline[1] === undefined ? decodeURIComponent(inline[2] ?? "") : new TextDecoder().decode(base64Bytes(inline[2] ?? ""));
    return { inline: JSON.parse(body) as RawSourceMap };
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(url) && !url.startsWith("file://")) return undefined;
  return { path: decodeURIComponent(url.replace(/^file:\/\//, "")) };
}

function base64Bytes(text: string): Uint8Array {
  return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
}
