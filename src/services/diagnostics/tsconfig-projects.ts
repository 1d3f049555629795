// The tsconfig projects that may hold a set of TypeScript files: every tsconfig.json from each
// file's folder up to the workspace root, and every project those reference (transitively), since
// a solution-style root (`"files": []` with references to a build and a spec project) holds no code
// of its own (it is not a candidate itself) and a spec project may import the build project's sources. Which of them really holds
// a file is the compiler's to say (typescript-check.ts lists each program's files), not a reading
// of include/exclude/extends here.
import type { ToolContext } from "../../capabilities/context.ts";
import { dirname } from "../../lib/paths/posix-path.ts";
import { readTsProject, type TsProject } from "../../lsp/solution-projects.ts";
import { tsProjectsFrom } from "../../lsp/tsconfig-walk.ts";

/** Projects looked at per edit; past this many the rest are named as not looked at. */
export const MAX_PROJECTS = 24;
const MAX_CONFIG_BYTES = 1024 * 1024;

export interface TsconfigCandidates {
  /** Root-relative tsconfig paths, nearest first. */
  configs: string[];
  /** More were found than MAX_PROJECTS. */
  truncated: boolean;
  /** No tsconfig.json from the files' folders up to the root: TypeScript's compiler has nothing to check here. */
  none: boolean;
}

/** Candidate projects for root-relative `files`, each config once. */
export async function tsconfigCandidates(ctx: ToolContext, files: readonly string[]): Promise<TsconfigCandidates> {
  const root = ctx.fs.root;
  const projects = new Map<string, TsProject | undefined>();
  const read = async (config: string) => {
    if (!projects.has(config))
      projects.set(
        config,
        await readTsProject(`${root}/${config}`, {
          readText: (path) => ctx.fs.readText(path, { maxBytes: MAX_CONFIG_BYTES }).catch(() => undefined),
        }),
      );
    return projects.get(config);
  };
  const queue: string[] = [];
  const seenDirs = new Set<string>();
  for (const file of files) {
    for (let dir = parentOf(file); ; dir = parentOf(dir)) {
      if (seenDirs.has(dir)) break;
      seenDirs.add(dir);
      const config = dir === "" ? "tsconfig.json" : `${dir}/tsconfig.json`;
      if ((await read(config)) !== undefined) queue.push(config);
      if (dir === "") break;
    }
  }
  const configs: string[] = [];
  const none = queue.length === 0;
  // References outside the workspace are not checked.
  const found = tsProjectsFrom(
    queue.map((config) => `${root}/${config}`),
    { within: root, read: (config) => read(config.slice(root.length + 1)) },
  );
  for await (const { config, project } of found) {
    // A solution's root holds no file: only its references are projects.
    if (project === undefined || project.solution) continue;
    if (configs.length === MAX_PROJECTS) return { configs, truncated: true, none };
    configs.push(config.slice(root.length + 1));
  }
  return { configs, truncated: false, none };
}

/** The root-relative folder of a root-relative path ("" at the root). */
function parentOf(path: string): string {
  const dir = dirname(path);
  return dir === "." || dir === "/" ? "" : dir;
}
