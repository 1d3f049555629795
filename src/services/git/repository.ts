// The one way tools run git: in the workspace root, with GIT_ENV, the fixed global options, and the
// overrides that take the repository's own program-running config away (repo-config-guard.ts).
// Opening checks that git found a repository at the workspace root or above it, so every path a
// tool passes (relative to the root) is inside both the workspace and the repository.
import { ToolError } from "../../errors.ts";
import type { RunOptions, RunResult } from "../../capabilities/exec/exec.ts";
import type { ToolContext } from "../../capabilities/context.ts";
import { GIT_ENV, GIT_GLOBAL_ARGS, GIT_READ_ARGS } from "./git-environment.ts";
import { gitFailure } from "./git-failure.ts";
import { configOverrides, parseConfigList, type GitAccess } from "./repo-config-guard.ts";

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
  /** Runs git; a non-zero exit (other than okExitCodes) throws a ToolError with git's message. */
  run(args: readonly string[], opts?: GitRunOptions): Promise<RunResult>;
  /** stdout of a git command that must succeed. */
  output(args: readonly string[], opts?: GitRunOptions): Promise<string>;
  /** A path as git prints it (relative to the repository's top level), relative to the workspace root. */
  workspacePath(repoPath: string): string;
}

export async function openRepository(ctx: ToolContext, access: GitAccess): Promise<Repository> {
  const base = [...GIT_GLOBAL_ARGS, ...(access === "read" ? GIT_READ_ARGS : [])];
  const exec = async (args: readonly string[], opts: GitRunOptions = {}): Promise<RunResult> => {
    const result = await ctx.exec.run("git", {
      args: opts.literalPathspecs === false ? args.filter((a) => a !== "--literal-pathspecs") : args,
      env: GIT_ENV,
      ...(opts.stdin === undefined ? {} : { stdin: opts.stdin }),
      ...(opts.timeoutMs === undefined ? {} : { timeoutMs: opts.timeoutMs }),
      ...(opts.maxOutputBytes === undefined ? {} : { maxOutputBytes: opts.maxOutputBytes }),
      ...(opts.onOutput === undefined ? {} : { onOutput: opts.onOutput }),
    });
    const subcommand = args.find((a, i) => !a.startsWith("-") && args[i - 1] !== "-c") ?? "";
    if (result.exitCode !== 0 && !(opts.okExitCodes ?? []).includes(result.exitCode)) throw gitFailure(subcommand, result);
    return result;
  };
  // Neither reads the index or runs a program; the guard's overrides are not known yet. They run
  // side by side: every tool call pays for both before its own command.
  const [location, config] = await Promise.all([
    exec([...base, "rev-parse", "--show-toplevel", "--show-prefix", "--absolute-git-dir"]),
    exec([...base, "config", "--list", "--show-scope", "--includes", "-z"], { okExitCodes: [1] }),
  ]);
  const located = location.stdout.split("\n");
  const top = located[0] ?? "";
  const prefix = located[1] ?? "";
  const gitDir = located[2] ?? "";
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
  const guarded = [...base, ...configOverrides(parseConfigList(config.stdout), access)];
  const depth = prefix.split("/").filter((p) => p !== "").length;
  return {
    prefix,
    gitDir,
    run: (args, opts) => exec([...guarded, ...args], opts),
    output: async (args, opts) => (await exec([...guarded, ...args], opts)).stdout,
    workspacePath: (repoPath) => (repoPath.startsWith(prefix) ? repoPath.slice(prefix.length) : `${"../".repeat(depth)}${repoPath}`),
  };
}
