// A project that imports a project it references reads that project's build output (`tsc -p` takes
// the referenced project's .d.ts, not its sources). When those sources changed after the last build
// (an edit, a checkout, a pull), the compiler answers about code that is no longer there: an error
// the sources do not have, or none where they now break the importer; the editor and `tsc -b`
// (which rebuilds first) both see the sources. So a compiler run whose program reads a referenced
// project's output is only the editor's answer while that output is current, and the compiler's
// own build mode says whether it is: `-b --dry --verbose` builds and writes nothing and says of each
// project "is up to date" or "is out of date because ...". One reason says nothing of the sources:
// an output written by another version of the compiler (the project's tsc 5 built it, TypeScript
// 7 checks); there the build's own rule of old is applied: a source newer than the oldest output read.
import type { ToolContext } from "../../capabilities/context.ts";
import { pathArgument } from "../../capabilities/exec/toolchain.ts";
import { dirname } from "../../lib/paths/posix-path.ts";

const DRY_RUN_TIMEOUT_MS = 30_000;
const MAX_OUTPUT_BYTES = 1024 * 1024;
const OUT_OF_DATE = /Project '([^']+)' is out of date because (.*)$/gm;
const OTHER_VERSION = /generated with version '[^']*' that differs with current version/;
const TS_SOURCE = /\.(?:ts|tsx|mts|cts)$/;
/** Source files looked at per referenced project when the build cannot say: past it, the output is taken as stale. */
const MAX_SOURCES = 20_000;

type Ctx = Pick<ToolContext, "exec" | "fs" | "signal">;

/**
 * The referenced projects (their tsconfig, root-relative) whose build output the program of
 * `project` reads and which are out of date; empty when it reads none or all are current;
 * undefined when the compiler could not say (then the run cannot be taken for the editor's view).
 */
export async function staleReferences(
  ctx: Ctx,
  opts: {
    compiler: "tsgo" | "tsc";
    project: string;
    /** The tsconfig files `project` references, transitively (root-relative): asked only when the program reads a declaration file of the workspace's own. */
    references: () => Promise<readonly string[]>;
    programFiles: readonly string[];
  },
): Promise<string[] | undefined> {
  // A referenced project's output is a declaration file in its folder (outside packages): a program
  // that reads none (the usual case, no references or their sources imported) costs no config read
  // and no compiler run.
  const declarations = opts.programFiles.filter((f) => f.endsWith(".d.ts") && !f.split("/").includes("node_modules"));
  if (declarations.length === 0) return [];
  const references = await opts.references();
  const outputsOf = (config: string) => declarations.filter((f) => under(f, config));
  if (!references.some((r) => outputsOf(r).length > 0)) return [];
  const result = await ctx.exec
    .runToolchain(opts.compiler, {
      args: ["-b", "--dry", "--verbose", pathArgument(opts.project)],
      timeoutMs: DRY_RUN_TIMEOUT_MS,
      maxOutputBytes: MAX_OUTPUT_BYTES,
      env: { NO_COLOR: "1" },
    })
    .catch(() => undefined);
  if (result === undefined || result.timedOut || result.exitCode !== 0) return undefined;
  const stale: string[] = [];
  for (const match of result.stdout.matchAll(OUT_OF_DATE)) {
    const name = relativeName(ctx.fs.root, match[1] ?? "");
    const outputs = references.includes(name) ? outputsOf(name) : [];
    if (outputs.length === 0) continue;
    if (!OTHER_VERSION.test(match[2] ?? "") || (await sourcesNewer(ctx, { config: name, outputs }))) stale.push(name);
  }
  return stale;
}

/** Whether a TypeScript source in the project's folder (not its outputs' folders) is newer than the oldest output read. */
async function sourcesNewer(ctx: Ctx, at: { config: string; outputs: readonly string[] }): Promise<boolean> {
  const times = await Promise.all(at.outputs.map(async (f) => (await ctx.fs.entryStat(f).catch(() => undefined))?.mtimeMs));
  if (times.some((t) => t === undefined)) return true;
  const oldest = Math.min(...(times as number[]));
  const outputFolders = new Set(at.outputs.map((f) => dirname(f)));
  const folder = dirname(at.config);
  let seen = 0;
  for await (const entry of ctx.fs.walk(folder === "" ? "." : folder, { maxDepth: 32, includeHidden: false, signal: ctx.signal })) {
    if (entry.kind !== "file" || !TS_SOURCE.test(entry.name) || entry.name.endsWith(".d.ts")) continue;
    const rel = folder === "." || folder === "" ? entry.rel : `${folder}/${entry.rel}`;
    if (rel.split("/").includes("node_modules") || [...outputFolders].some((o) => rel.startsWith(`${o}/`))) continue;
    if (++seen > MAX_SOURCES) return true;
    const mtime = (await ctx.fs.entryStat(rel).catch(() => undefined))?.mtimeMs;
    if (mtime === undefined || mtime > oldest) return true;
  }
  return false;
}

function under(file: string, config: string): boolean {
  const dir = dirname(config);
  return dir === "." || dir === "" || file.startsWith(`${dir}/`);
}

/** A tsconfig as the build names it (relative to the workspace root it runs in, or absolute), root-relative. */
function relativeName(root: string, name: string): string {
  if (name.startsWith(`${root}/`)) return name.slice(root.length + 1);
  return name.replace(/^\.\//, "");
}

/**
 * Why a compiler run of `project` is not taken, its program reading referenced build output that is
 * `stale` (staleReferences' answer: those projects, or undefined when the compiler could not say).
 */
export function staleReferencesRefusal(project: string, at: { stale: readonly string[] | undefined; compiler: "tsgo" | "tsc" }): string {
  const what =
    at.stale === undefined
      ? `the projects it references, and whether that output is current could not be told (\`${at.compiler} -b --dry\` failed)`
      : `${at.stale.join(", ")}, older than its sources`;
  return `${project} reads the build output of ${what}, so the compiler's answer for it is not the editor's; run \`tsc -b\` to rebuild it`;
}
