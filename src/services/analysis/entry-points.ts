// Where a program starts: what package.json names (main, module, types, exports, bin), Python's
// `__main__.py`, `if __name__ == "__main__":` and pyproject's scripts, Go's `package main`, C's
// main(). Code reached only from outside the import graph (by the runtime, a CLI, a package's
// users) starts here, so nothing an entry point declares is ever called unused.
import type { ToolContext } from "../../capabilities/context.ts";
import { dirname, normalize } from "../../lib/paths/posix-path.ts";

const MAX_BYTES = 1024 * 1024;
/** Build output folders whose files are compiled from a source folder of the same layout. */
const BUILT = /^(?:\.\/)?(?:dist|build|lib|out)\/(.+?)\.(?:[cm]?js|d\.[cm]?ts)$/;
const SOURCE_EXTENSIONS = [".ts", ".tsx", ".mts", ".cts", ".js", ".mjs", ".cjs", ".jsx"];

export interface EntryPoints {
  /** Root-relative file -> why it is an entry point. */
  files: Map<string, string>;
  /** What was assumed to find them (a build folder's file traced to its source by name). */
  assumed: string[];
}

/** Entry points declared by the manifests at the root (package.json, pyproject.toml). */
export async function declaredEntryPoints(ctx: ToolContext): Promise<EntryPoints> {
  const found: EntryPoints = { files: new Map(), assumed: [] };
  const pkg = await ctx.fs.readText("package.json", { maxBytes: MAX_BYTES }).catch(() => undefined);
  if (pkg !== undefined) {
    let data: unknown;
    try {
      data = JSON.parse(pkg);
    } catch {
      found.assumed.push("package.json is not valid JSON: its entry points are unknown");
    }
    if (isRecord(data)) {
      for (const field of ["main", "module", "types", "typings", "browser"])
        if (typeof data[field] === "string") await addManifestPath(ctx, found, data[field], `package.json ${field}`);
      for (const path of stringsIn(data.exports)) await addManifestPath(ctx, found, path, "package.json exports");
      for (const path of typeof data.bin === "string" ? [data.bin] : stringsIn(data.bin))
        await addManifestPath(ctx, found, path, "package.json bin");
    }
  }
  const pyproject = await ctx.fs.readText("pyproject.toml", { maxBytes: MAX_BYTES }).catch(() => undefined);
  if (pyproject !== undefined)
    for (const m of pyproject.matchAll(/^\s*[\w.-]+\s*=\s*"([\w.]+):[\w.]+"\s*$/gm)) {
      const module = (m[1] ?? "").replaceAll(".", "/");
      for (const candidate of [`${module}.py`, `src/${module}.py`, `${module}/__init__.py`, `src/${module}/__init__.py`])
        if (await isFile(ctx, candidate)) found.files.set(candidate, "pyproject.toml script");
    }
  return found;
}

/** Whether a source file's own text makes it a program's start (a main function, a __main__ guard). */
export function startsAProgram(file: string, text: string): string | undefined {
  if (file.endsWith("__main__.py")) return "__main__.py";
  if (/^if\s+__name__\s*==\s*["']__main__["']\s*:/m.test(text)) return 'if __name__ == "__main__"';
  if (file.endsWith(".go") && /^package\s+main\b/m.test(text) && /^func\s+main\s*\(/m.test(text)) return "Go package main";
  if (/\.(?:c|cc|cpp|cxx)$/.test(file) && /^\s*(?:int|void)\s+main\s*\(/m.test(text)) return "C main()";
  if (/^#!.*\b(?:node|deno|bun|tsx|python3?)\b/.test(text)) return "executable script (#!)";
  return undefined;
}

/** Names a runtime or test runner calls by convention: never unused even with no reference. */
export function conventionallyCalled(name: string, languageId: string): boolean {
  if (languageId === "go") return /^(?:main|init|Test\w*|Benchmark\w*|Example\w*|Fuzz\w*)$/.test(name);
  if (languageId === "python") return /^(?:main|test_\w*|Test\w*|setUp\w*|tearDown\w*|__\w+__|pytest_\w+)$/.test(name);
  if (["c", "cpp", "objective-c"].includes(languageId)) return name === "main";
  return name === "default";
}

async function addManifestPath(ctx: ToolContext, found: EntryPoints, path: string, why: string): Promise<void> {
  const clean = normalize(path.replace(/^\.\//, ""));
  if (clean.includes("*")) {
    found.assumed.push(`${why} names a pattern (${path}): every file under ${dirname(clean)}/ is taken as an entry point`);
    found.files.set(`${dirname(clean)}/`, why);
    return;
  }
  if (await isFile(ctx, clean)) found.files.set(clean, why);
  const built = BUILT.exec(clean);
  if (built?.[1] === undefined) return;
  for (const dir of ["src", "lib", "."]) {
    for (const ext of SOURCE_EXTENSIONS) {
      const source = normalize(`${dir}/${built[1]}${ext}`);
      if (source !== clean && (await isFile(ctx, source))) {
        found.files.set(source, `${why} (${path}, built from it)`);
        found.assumed.push(`${path} (${why}) is built from ${source}`);
        return;
      }
    }
  }
}

/** Whether a file is an entry point, directly or under a pattern's folder. */
export function isEntryPoint(entries: EntryPoints, file: string): string | undefined {
  const direct = entries.files.get(file);
  if (direct !== undefined) return direct;
  for (const [path, why] of entries.files) if (path.endsWith("/") && file.startsWith(path)) return why;
  return undefined;
}

function stringsIn(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (isRecord(value)) return Object.values(value).flatMap(stringsIn);
  return [];
}

async function isFile(ctx: ToolContext, path: string): Promise<boolean> {
  return (await ctx.fs.entryStat(path).catch(() => undefined))?.isFile === true;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
