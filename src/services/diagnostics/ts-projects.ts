// The TypeScript projects a whole-workspace or directory check runs the compiler on: every
// tsconfig.json in the workspace (the one an editor finds for a file is the nearest above it) and
// the configs their `references` name, transitively; of those, the ones with a file of their own
// in the requested directory. A solution config (`"files": []` with references) has no file of its
// own: its references are the projects. They come in the order a capped answer should fill with:
// projects of the project's own code first, then tests, then benchmarks and examples
// (file-rank.ts), each ranked by the best of its files in scope.
import type { ToolContext } from "../../capabilities/context.ts";
import { fileRank } from "../../lsp/file-rank.ts";
import { readTsProject } from "../../lsp/solution-projects.ts";
import { tsconfigsUnder, tsProjectsFrom } from "../../lsp/tsconfig-walk.ts";
import { isInside } from "../../lib/paths/posix-path.ts";

const MAX_CONFIG_BYTES = 1024 * 1024;
/** Configs read per call: a workspace with more is checked in part, and the answer says so. */
const MAX_PROJECTS = 64;
const TS_SOURCE = /\.(?:ts|tsx|mts|cts)$/;
/** What a project's check reads besides its program's files: configs it may extend, package manifests resolution reads. */
const CONFIG_FILE = /^(?:tsconfig.*\.json|jsconfig\.json|package\.json)$/;

export interface ScopedProject {
  /** Its tsconfig, root-relative: how the answer names it. */
  name: string;
  /** Its best file rank in scope (file-rank.ts): 0 the project's own code... */
  rank: number;
  /** Its own TypeScript files in scope. */
  files: number;
  /** The workspace's tsconfig files it references, transitively (root-relative): whose build output it may read. */
  references: string[];
}

export interface ProjectScope {
  projects: ScopedProject[];
  /** TypeScript files in scope (root-relative). */
  sources: number;
  /** The workspace's tsconfig and package.json files (root-relative): inputs of every project's check. */
  configs: string[];
  /** Configs that could not be followed (outside the workspace, unreadable, past the bound), in words. */
  notes: string[];
}

/** The projects with files under `under` (root-relative; the whole workspace when undefined), best first. */
export async function projectsInScope(ctx: Pick<ToolContext, "fs" | "signal">, under: string | undefined): Promise<ProjectScope> {
  const root = ctx.fs.root;
  const prefix = under === undefined || under === "" || under === "." ? "" : `${under.replace(/\/+$/, "")}/`;
  const sources: string[] = [];
  const inputs: string[] = [];
  const configs = await tsconfigsUnder(ctx.fs, {
    dir: ".",
    maxDepth: 32,
    jsconfig: false,
    signal: ctx.signal,
    onFile: (entry) => {
      if (CONFIG_FILE.test(entry.name)) inputs.push(entry.rel);
      if (entry.name !== "tsconfig.json" && TS_SOURCE.test(entry.name) && entry.rel.startsWith(prefix)) sources.push(entry.path);
    },
  });
  const notes: string[] = [];
  let count = 0;
  const projects: ScopedProject[] = [];
  /** Each config read (root-relative) and those it references in the workspace. */
  const referencing = new Map<string, string[]>();
  const found = tsProjectsFrom(configs, {
    within: root,
    read: (config) =>
      readTsProject(config, { readText: (path) => ctx.fs.readText(path, { maxBytes: MAX_CONFIG_BYTES }).catch(() => undefined) }),
    outside: (config, reference) =>
      notes.push(`${config.slice(root.length + 1)} references ${reference}, outside the workspace: not checked`),
  });
  for await (const { config, project } of found) {
    const name = config.slice(root.length + 1);
    if (++count > MAX_PROJECTS) {
      notes.push(`more than ${MAX_PROJECTS} tsconfig projects: ${name} and those after it were checked file by file`);
      break;
    }
    if (project === undefined) {
      notes.push(`${name} could not be read as JSON, so its files were checked file by file`);
      continue;
    }
    referencing.set(
      name,
      project.references.filter((reference) => isInside(reference, root)).map((reference) => reference.slice(root.length + 1)),
    );
    if (project.solution) continue;
    const own = sources.filter((path) => project.owns(path));
    if (own.length === 0) continue;
    const rank = Math.min(...own.map((path) => fileRank(path.slice(root.length + 1))));
    projects.push({ name, rank, files: own.length, references: [] });
  }
  for (const project of projects) project.references = transitively(referencing, project.name);
  projects.sort((a, b) => a.rank - b.rank || b.files - a.files || a.name.localeCompare(b.name));
  return { projects, sources: sources.length, configs: inputs, notes };
}

/** The configs `name` references, and those they reference, in the order found; never `name` itself. */
function transitively(referencing: ReadonlyMap<string, readonly string[]>, name: string): string[] {
  const found = new Set<string>();
  const queue = [...(referencing.get(name) ?? [])];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    if (next === name || found.has(next)) continue;
    found.add(next);
    queue.push(...(referencing.get(next) ?? []));
  }
  return [...found];
}
