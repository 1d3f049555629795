// The one walk that finds TypeScript projects, for the three that need them: the whole-workspace
// check's compiler runs (services/diagnostics/ts-projects.ts), the edit check's candidates
// (services/diagnostics/tsconfig-projects.ts, which starts from the configs above the edited files
// instead of a folder's tree) and the projects a TypeScript server loads before a whole-project answer
// (solution-projects.ts through file-readiness.ts). Two steps: the configs a folder's tree holds
// (the workspace walk: no dependencies, no hidden or ignored folders, to a depth), then the
// projects those reach through their `references`, transitively, breadth first, each once, none
// outside the given folder; the caller stops when it has enough (its own bound).
import type { WalkEntry } from "../workspace/walk.ts";
import type { WorkspaceFs } from "../workspace/workspace-fs.ts";
import { isInside } from "../lib/paths/posix-path.ts";

const TSCONFIG = /(?:^|\/)tsconfig\.json$/;
const TS_OR_JSCONFIG = /(?:^|\/)[tj]sconfig\.json$/;

/**
 * The tsconfig.json files (and jsconfig.json, with `jsconfig`) under `dir` (root-relative, "." the root), absolute, in the
 * walk's order; `onFile` sees every file the walk reaches, for a caller that looks for more in it.
 */
export async function tsconfigsUnder(
  fs: Pick<WorkspaceFs, "walk">,
  at: { dir: string; maxDepth: number; jsconfig: boolean; signal: AbortSignal; onFile?(entry: WalkEntry): void },
): Promise<string[]> {
  const configs: string[] = [];
  const wanted = at.jsconfig ? TS_OR_JSCONFIG : TSCONFIG;
  for await (const entry of fs.walk(at.dir, { maxDepth: at.maxDepth, includeHidden: false, signal: at.signal })) {
    if (entry.kind !== "file") continue;
    at.onFile?.(entry);
    if (wanted.test(entry.name)) configs.push(entry.path);
  }
  return configs;
}

/** One config the walk reached: its project (solution-projects.ts' TsProject), undefined when it could not be read. */
export interface FoundProject<P> {
  config: string;
  project: P | undefined;
}

/**
 * The projects of `seeds` (absolute tsconfig paths) and those their `references` reach, each once,
 * breadth first; a reference outside `within` is not followed, but told to `outside`.
 */
export async function* tsProjectsFrom<P extends { references: readonly string[] }>(
  seeds: readonly string[],
  opts: { within: string; read(config: string): Promise<P | undefined>; outside?(from: string, reference: string): void },
): AsyncGenerator<FoundProject<P>> {
  const queue = [...seeds];
  const seen = new Set<string>();
  for (let config = queue.shift(); config !== undefined; config = queue.shift()) {
    if (seen.has(config) || !isInside(config, opts.within)) continue;
    seen.add(config);
    const project = await opts.read(config);
    // Its references are followed once the caller takes the next: one that stops here hears of none.
    yield { config, project };
    for (const reference of project?.references ?? []) {
      if (isInside(reference, opts.within) && reference !== opts.within) queue.push(reference);
      else opts.outside?.(config, reference);
    }
  }
}
