// findProjectRoot over the Runtime's filesystem, for the bridge's default workspace and doctor.
import { dirname } from "../lib/paths/posix-path.ts";
import type { Runtime } from "../ports/runtime.ts";
import { describeProjectRoot, type ProjectRoot } from "./project-root.ts";

/** The project around `dir` (its realpath when it exists): the git top level, else the nearest manifest. */
export async function projectRootFor(runtime: Pick<Runtime, "fs" | "paths">, dir: string): Promise<string> {
  return (await describeProjectRootFor(runtime, dir)).root;
}

export async function describeProjectRootFor(runtime: Pick<Runtime, "fs" | "paths">, dir: string): Promise<ProjectRoot> {
  const start = await runtime.fs.realpath(dir).catch(() => dir);
  return describeProjectRoot(start, {
    list: (d) =>
      runtime.fs.readdir(d).then(
        (entries) => entries.map((e) => e.name),
        () => [],
      ),
    parent: dirname,
    home: runtime.paths.home,
  });
}
