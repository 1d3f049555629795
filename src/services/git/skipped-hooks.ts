// Which of the repository's hooks a git run did not run. The bridge runs none unless the user started
// it with --allow-git-hooks (src/security/git/git-environment.ts, NO_HOOKS): a hook is a program the
// repository names, and whoever could write the repository could write it. A commit that a lint hook
// would have refused must not look as if the hook passed, so the tools that would have run hooks
// name them.
import { ToolError } from "../../errors.ts";
import type { ToolContext } from "../../capabilities/context.ts";
import type { Repository } from "./repository.ts";

/**
 * The hooks among `names` that exist and are executable in the repository's hooks directory, and
 * were not run; [] when hooks run. undefined when the directory is outside the workspace, where
 * the bridge does not look.
 */
export async function skippedHooks(ctx: ToolContext, repo: Repository, opts: { names: readonly string[] }): Promise<string[] | undefined> {
  if (ctx.settings.allowGitHooks === true) return [];
  let entries: { name: string }[];
  try {
    entries = await ctx.fs.list(repo.hooksDir);
  } catch (err) {
    if (err instanceof ToolError && (err.code === "file_not_found" || err.code === "not_a_directory")) return [];
    if (err instanceof ToolError) return undefined;
    throw err;
  }
  const present = entries.filter((e) => opts.names.includes(e.name));
  const executable = await Promise.all(
    present.map(async (e) => ((await ctx.fs.stat(`${repo.hooksDir}/${e.name}`).catch(() => undefined))?.mode ?? 0) & 0o111),
  );
  return present.filter((_, i) => (executable[i] ?? 0) !== 0).map((e) => e.name);
}

/** What a result says about skipped hooks, or nothing. */
export function hooksNote(skipped: readonly string[] | undefined): { hooksNotRun?: string[] } {
  return skipped === undefined || skipped.length === 0 ? {} : { hooksNotRun: [...skipped] };
}
