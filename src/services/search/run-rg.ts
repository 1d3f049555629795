// Runs rg on a directory the jail resolved, and turns its failures into answers a model can act
// on. rg runs on a path, so the directory can be replaced between the jail's check and rg's start
// (deleted, or swapped for a file or a symlink): then the spawn fails (its cwd is gone) or rg exits
// with 2 and says nothing (--no-messages). Checking the directory again names what happened
// (file_not_found, outside_workspace, not_a_directory; file_changed when it is back by then)
// instead of an internal error.
import type { RunOptions, RunResult } from "../../capabilities/exec/exec.ts";
import { ToolError } from "../../errors.ts";
import { RuntimeError } from "../../ports/errors.ts";
import type { WorkspacePath } from "../../security/jail/workspace-path.ts";
import type { ToolContext } from "../../capabilities/context.ts";
import { rgFailed } from "./rg-flags.ts";

export async function runRg(ctx: ToolContext, dir: WorkspacePath, opts: Omit<RunOptions, "cwd">): Promise<RunResult> {
  const rel = ctx.fs.relative(dir);
  for (let attempt = 1; ; attempt++) {
    const result = await runOnce(ctx, rel, opts);
    if (!(result instanceof Error)) return result;
    // Failed with nothing to show, and the directory is (again) a directory inside: it was
    // replaced for a moment, or rg cannot work here. Once more, then say which.
    if (attempt === 2) {
      // Exit 2 with nothing on stderr (rg hit errors on entries it was reading, its messages are
      // off) or no directory to start in: what entries or the directory being swapped under it
      // look like. Anything rg says on stderr is another problem, the bridge's or rg's.
      if (result instanceof ChangedUnderRg) {
        throw new ToolError("file_changed", `${rel || "."} changed while rg searched it, twice (entries vanished or were replaced)`, {
          suggestion: "Something is rewriting this directory right now; retry once it is stable.",
        });
      }
      throw new ToolError(
        "internal_error",
        `rg could not search ${rel || "."} (twice; is it being replaced right now?): ${result.message}`,
        { suggestion: "Retry; if it persists, check that rg works from a terminal in the workspace." },
      );
    }
  }
}

/** rg's result, or the failure when it failed with no output while the directory checks out now. */
async function runOnce(ctx: ToolContext, rel: string, opts: Omit<RunOptions, "cwd">): Promise<RunResult | Error> {
  let result: RunResult;
  try {
    result = await ctx.exec.run("rg", { ...opts, cwd: rel === "" ? "." : rel });
  } catch (err) {
    await recheckDirectory(ctx, rel);
    // A timeout, a cancel, a refused permission: not worth a second run.
    if (err instanceof ToolError && err.code !== "internal_error") throw err;
    // Not a directory when rg started, one again now: it was being replaced.
    if (cwdWasMissing(err)) return new ChangedUnderRg("the directory was not there when rg started");
    return err instanceof Error ? err : new Error(String(err));
  }
  if (!rgFailed(result.exitCode) || result.stdout !== "") return result;
  await recheckDirectory(ctx, rel);
  const said = result.stderr.trim();
  return said === ""
    ? new ChangedUnderRg(`rg exited with ${result.exitCode}`)
    : new Error(`rg exited with ${result.exitCode}: ${said.slice(0, 300)}`);
}

/**
 * What a directory replaced under rg looks like: rg failed with nothing on stderr (errors on the
 * entries it read, its messages being off), or could not start in it (its cwd was gone).
 */
class ChangedUnderRg extends Error {}

function cwdWasMissing(err: unknown): boolean {
  const cause = err instanceof Error ? err.cause : undefined;
  return (
    cause instanceof RuntimeError && (cause.code === "ENOENT" || cause.code === "ENOTDIR") && cause.message.includes("working directory")
  );
}

/** Throws the jail's own error when `rel` is no longer a directory inside the workspace. */
async function recheckDirectory(ctx: ToolContext, rel: string): Promise<void> {
  const path = rel === "" ? "." : rel;
  const now = await ctx.fs.stat(path);
  if (!now.isDirectory)
    throw new ToolError("not_a_directory", `${path} stopped being a directory while it was searched`, {
      suggestion: "Something is replacing this path right now; retry once it is stable.",
    });
}
