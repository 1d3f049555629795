// The source maps of one Node debug session. Breakpoints in a TypeScript file are set before Node
// loads the JavaScript compiled from it, so the maps are found ahead of time: the `*.js.map` files
// under the program's working directory (bounded; node_modules and dot-directories skipped). A
// paused script's own sourceMappingURL (a file, or inline) is read when a frame in it is shown.
import type { Fs } from "../../ports/fs.ts";
import { dirname, join } from "../../lib/paths/posix-path.ts";
import { mapLocation, SourceMap, type RawSourceMap } from "./source-map.ts";

const MAX_ENTRIES = 5000;
const MAX_MAPS = 500;
const MAX_MAP_BYTES = 16 * 1024 * 1024;
const MAP_FILE = /\.(js|mjs|cjs)\.map$/;

export interface MappedScript {
  /** The generated JavaScript file. */
  generated: string;
  map: SourceMap;
}

export class SourceMapStore {
  private scan: Promise<void> | undefined;
  private readonly bySource = new Map<string, MappedScript>();
  private readonly byScript = new Map<string, Promise<SourceMap | undefined>>();

  constructor(
    private readonly fs: Pick<Fs, "readdir" | "readTextFile" | "stat">,
    private readonly root: string,
  ) {}

  /** The compiled script and map of a source file (a .ts), when a map under the root names it. */
  async forSource(path: string): Promise<MappedScript | undefined> {
    this.scan ??= this.walk();
    await this.scan;
    return this.bySource.get(path);
  }

  /** The map of a generated script: its sourceMappingURL's, else one found by the scan. */
  async forScript(path: string, sourceMapUrl: string | undefined): Promise<SourceMap | undefined> {
    let found = this.byScript.get(path);
    if (found === undefined) {
      found = this.load(path, sourceMapUrl);
      this.byScript.set(path, found);
    }
    return found;
  }

  private async load(script: string, url: string | undefined): Promise<SourceMap | undefined> {
    const where = url === undefined || url === "" ? undefined : mapLocation(script, url);
    if (where !== undefined && "inline" in where) return new SourceMap(where.inline, dirname(script));
    if (where !== undefined) return (await this.read(where.file))?.map;
    this.scan ??= this.walk();
    await this.scan;
    return [...this.bySource.values()].find((m) => m.generated === script)?.map;
  }

  private async read(mapPath: string): Promise<MappedScript | undefined> {
    try {
      if ((await this.fs.stat(mapPath)).size > MAX_MAP_BYTES) return undefined;
      const raw = JSON.parse(await this.fs.readTextFile(mapPath)) as RawSourceMap;
      if (raw.version !== 3 || typeof raw.mappings !== "string") return undefined;
      const base = dirname(mapPath);
      const generated = typeof raw.file === "string" && raw.file !== "" ? join(base, raw.file) : mapPath.replace(/\.map$/, "");
      return { generated, map: new SourceMap(raw, base) };
    } catch {
      // Unreadable or not JSON: a map that cannot be used is the same as none.
      return undefined;
    }
  }

  private async walk(): Promise<void> {
    const queue = [this.root];
    let seen = 0;
    let maps = 0;
    while (queue.length > 0 && seen < MAX_ENTRIES && maps < MAX_MAPS) {
      const dir = queue.shift() ?? "";
      const entries = await this.fs.readdir(dir).catch(() => []);
      for (const entry of entries) {
        seen += 1;
        const path = join(dir, entry.name);
        if (entry.isDirectory && !entry.name.startsWith(".") && entry.name !== "node_modules") queue.push(path);
        else if (entry.isFile && MAP_FILE.test(entry.name)) {
          maps += 1;
          const mapped = await this.read(path);
          if (mapped === undefined) continue;
          this.byScript.set(mapped.generated, Promise.resolve(mapped.map));
          for (const source of mapped.map.sources) if (!this.bySource.has(source)) this.bySource.set(source, mapped);
        }
      }
    }
  }
}

/** The file path of a script URL Node reports (file:// URLs for modules, plain paths in older Nodes). */
export function scriptPath(url: string): string | undefined {
  if (url.startsWith("file://")) return decodeURIComponent(url.slice("file://".length));
  return url.startsWith("/") ? url : undefined;
}
