// Source maps (version 3, as tsc writes them with `sourceMap` or `inlineSourceMap`): a breakpoint on a
// TypeScript line becomes a position in the JavaScript Node runs, and a paused JavaScript position
// reads back as the TypeScript file and line. Lines here are 0-based, as in the map and in CDP.
import { dirname, isAbsolute, join } from "../../lib/paths/posix-path.ts";
import {
  decodeMappings,
  parseMapUrl,
  type DecodedMappings,
  type MappedSegment as Segment,
  type RawSourceMap,
} from "../../lib/source-map/mappings.ts";

export type { RawSourceMap };

export class SourceMap {
  /** Absolute paths of the original sources, by index. */
  readonly sources: readonly string[];
  private decoded: DecodedMappings | undefined;

  /** `base` is the directory the map's relative source paths start from (the map file's own). */
  constructor(
    private readonly raw: RawSourceMap,
    base: string,
  ) {
    const root = raw.sourceRoot ?? "";
    this.sources = (raw.sources ?? []).map((s) => {
      const path = join(root, String(s).replace(/^file:\/\//, ""));
      return isAbsolute(path) ? path : join(base, path);
    });
  }

  /**
   * Where a source line's code starts in the generated file: the first segment of that line, else of
   * the next line that has code (`line` then says which). Undefined when no line from there on has code.
   */
  generatedFor(sourcePath: string, line: number): { line: number; genLine: number; genColumn: number } | undefined {
    const index = this.sources.indexOf(sourcePath);
    if (index < 0) return undefined;
    const segments = this.segments().bySource[index] ?? [];
    let best: Segment | undefined;
    for (const s of segments) {
      if (s.line < line) continue;
      if (best === undefined || s.line < best.line || (s.line === best.line && before(s, best))) best = s;
    }
    return best === undefined ? undefined : { line: best.line, genLine: best.genLine, genColumn: best.genColumn };
  }

  /** The source position of a generated one: the last segment at or before the column on its line. */
  originalFor(genLine: number, genColumn: number): { path: string; line: number } | undefined {
    const segments = this.segments().byGenerated[genLine] ?? [];
    let found: Segment | undefined;
    for (const s of segments) if (s.genColumn <= genColumn) found = s;
    found ??= segments[0];
    const path = found === undefined ? undefined : this.sources[found.source];
    return found === undefined || path === undefined ? undefined : { path, line: found.line };
  }

  private segments(): DecodedMappings {
    if (this.decoded === undefined) {
      try {
        this.decoded = decodeMappings(this.raw.mappings ?? "", this.sources.length);
      } catch {
        // A malformed map maps nothing: breakpoints through it are reported unverified.
        this.decoded = { byGenerated: [], bySource: [] };
      }
    }
    return this.decoded;
  }
}

function before(a: Segment, b: Segment): boolean {
  return a.genLine < b.genLine || (a.genLine === b.genLine && a.genColumn < b.genColumn);
}

/** A map named by a script's sourceMappingURL: inline (a base64 data URL) or a file next to the script. */
export function mapLocation(scriptPath: string, url: string): { inline: RawSourceMap } | { file: string } | undefined {
  let where: ReturnType<typeof parseMapUrl>;
  try {
    where = parseMapUrl(url);
  } catch {
    // An inline map that is not JSON maps nothing.
    return undefined;
  }
  if (where === undefined || "inline" in where) return where;
  return { file: isAbsolute(where.path) ? where.path : join(dirname(scriptPath), where.path) };
}
