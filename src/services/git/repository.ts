// The one way the git tools open the workspace repository: through ctx.exec.git (the bridge's one
// git runner, src/capabilities/exec/git-runner.ts: only the environment git needs, fixed options, the
// repository's program-running config neutralised), in the workspace root, with literal pathspecs.
// Opening checks that git found a repository at the workspace root or above it, so every path a
// tool passes (relative to the root) is inside both the workspace and the repository.
import { ToolError } from "../../errors.ts";
import type { RunOptions, RunResult } from "../../capabilities/exec/exec.ts";
import type { ToolContext } from "../../capabilities/context.ts";
import type { ConfigEntry, GitAccess } from "../../security/git/repo-config-guard.ts";
import { parseLocation } from "../../capabilities/exec/git-location.ts";
import { LITERAL_PATHSPECS } from "./git-environment.ts";
import { gitFailure } from "./git-failure.ts";

interface GitRunOptions {
  /** Written to git's stdin (commit messages go this way, with `-F -`). */
  stdin?: string;
  timeoutMs?: number;
  maxOutputBytes?: number;
  /** Exit codes that are answers rather than failures (e.g. 1 from `diff --quiet`). */
  okExitCodes?: readonly number[];
  onOutput?: RunOptions["onOutput"];
  /**
   * false for a command given no user paths whose own internal pathspecs need their magic
   * (`stash push --include-untracked` stashes nothing untracked under --literal-pathspecs).
   */
  literalPathspecs?: boolean;
}

export interface Repository {
  /** The workspace root inside the repository: "" at its top level, else e.g. "packages/app/". */
  readonly prefix: string;
  /** This worktree's own git directory, absolute (a linked worktree's is under the main one's .git). */
  readonly gitDir: string;
  /** The config git read when the repository was opened (every scope). */
  readonly config: readonly ConfigEntry[];
  /** Where the repository's hooks are (absolute), whether or not they run. */
  readonly hooksDir: string;
  /** Runs git; a non-zero exit (other than okExitCodes) throws a ToolError with git's message. */
  run(args: readonly string[], opts?: GitRunOptions): Promise<RunResult>;
  /** stdout of a git command that must succeed. */
  output(args: readonly string[], opts?: GitRunOptions): Promise<string>;
  /** A path as git prints it (relative to the repository's top level), relative to the workspace root. */
  workspacePath(repoPath: string): string;
}

export async function openRepository(ctx: ToolContext, access: GitAccess): Promise<Repository> {
  // Where git finds the repository is asked beside the config read: rev-parse runs no program.
  const git = await ctx.exec.git({ access, locate: true });
  const exec = async (args: readonly string[], opts: GitRunOptions = {}): Promise<RunResult> => {
    const result = await git.run(opts.literalPathspecs === false ? args : [LITERAL_PATHSPECS, ...args], {
      ...(opts.stdin === undefined ? {} : { stdin: opts.stdin }),
      ...(opts.timeoutMs === undefined ? {} : { timeoutMs: opts.timeoutMs }),
      ...(opts.maxOutputBytes === undefined ? {} : { maxOutputBytes: opts.maxOutputBytes }),
      ...(opts.onOutput === undefined ? {} : { onOutput: opts.onOutput }),
    });
    const subcommand = args.find((a, i) => !a.startsWith("-") && args[i - 1] !== "-c") ?? "";
    if (result.exitCode !== 0 && !(opts.okExitCodes ?? []).includes(result.exitCode)) throw gitFailure(subcommand, result);
    return result;
  };
  const located = git.located;
  if (located === undefined) throw new ToolError("internal_error", "git's location was not asked", { suggestion: "Report this as a bug." });
  if (located.exitCode !== 0) throw gitFailure("rev-parse", located);
  const { top, prefix, gitDir, commonDir } = parseLocation(located.stdout);
  const root = ctx.fs.root;
  if (top === "" || !(root === top || root.startsWith(top === "/" ? "/" : `${top}/`))) {
    throw new ToolError(
      "not_a_repository",
      `git's working tree (${top || "none"}) is not the workspace root ${root} or a folder above it`,
      {
        suggestion: "Open the repository's folder as the workspace; a core.worktree or .git file pointing elsewhere is not followed.",
      },
    );
  }
  const depth = prefix.split("/").filter((p) => p !== "").length;
  const configured = [...git.config].reverse().find((e) => e.key === "core.hookspath")?.value;
  return {
    prefix,
    gitDir,
    config: git.config,
    // As git resolves it: a relative core.hooksPath is relative to the top of the working tree.
    hooksDir: configured === undefined ? `${commonDir}/hooks` : configured.startsWith("/") ? configured : `${top}/${configured}`,
    run: (args, opts) => exec(args, opts),
    output: async (args, opts) => (await exec(args, opts)).stdout,
    workspacePath: (repoPath) => (repoPath.startsWith(prefix) ? repoPath.slice(prefix.length) : `${"../".repeat(depth)}${repoPath}`),
  };
}
