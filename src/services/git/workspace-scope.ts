// With the workspace a subfolder of a repository (a package of a monorepo), git's working-tree
// changes reach the whole repository: a branch switch rewrites files beside the workspace, a stash
// takes the edits there, a pull merges into them. The bridge's promise is the workspace, so the
// tools that change the working tree ask here first what the change would touch outside it.
import { ToolError } from "../../errors.ts";
import type { Repository } from "./repository.ts";

/** Paths git printed (relative to the repository's top level) that lie outside the workspace. */
export function outsideWorkspace(repo: Pick<Repository, "prefix">, paths: readonly string[]): string[] {
  if (repo.prefix === "") return [];
  return paths.filter((p) => p !== "" && !p.startsWith(repo.prefix));
}

/** Files that differ between two commits, as names only (no diff program, no textconv runs). */
export async function changedBetween(repo: Repository, opts: { from: string; to: string }): Promise<string[]> {
  const out = await repo.output([
    "diff",
    "--no-ext-diff",
    "--no-textconv",
    "--name-only",
    "-z",
    "--end-of-options",
    opts.from,
    opts.to,
    "--",
  ]);
  return out.split("\0").filter((p) => p !== "");
}

/** Refuses a change that would touch files outside the workspace, naming (some of) them. */
export function refuseOutside(
  repo: Pick<Repository, "prefix">,
  opts: { what: string; paths: readonly string[]; suggestion?: string },
): void {
  const outside = outsideWorkspace(repo, opts.paths);
  if (outside.length === 0) return;
  const shown = outside.slice(0, 5).join(", ");
  const more = outside.length > 5 ? ` and ${outside.length - 5} more` : "";
  throw new ToolError(
    "outside_workspace",
    `${opts.what} would change ${outside.length} file(s) outside the workspace (${repo.prefix} of its repository): ${shown}${more}`,
    {
      suggestion:
        opts.suggestion ?? "Do this in a terminal at the repository's top level, or open the repository's top level as the workspace.",
    },
  );
}
