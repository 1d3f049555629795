// The shared body of the tools whose answer is a diff-like text (getGitDiff, getCommitDetails,
// getDiffBetweenRefs): open the repository for reading, turn the user's paths into pathspecs,
// let git write up to the result cap, and say when there is nothing or when it was cut.
import type { ToolContext } from "../../capabilities/context.ts";
import { pathspecs } from "./pathspec.ts";
import { openRepository } from "./repository.ts";
import { diffedOutside, workspaceOnlyNote } from "./partial-view.ts";
import { dirtySubmodules } from "./submodule-content.ts";
import { textBudget, textResult } from "./text-output.ts";

interface DiffTextOptions {
  /** The user's paths (default: the whole workspace). */
  paths: readonly string[] | undefined;
  /** git's arguments, given the pathspecs to put after "--". */
  args(pathspecs: readonly string[]): string[];
  maxChars?: number | undefined;
  /** What to say when git printed nothing. */
  empty: string;
  /** How to ask for less, when the output was cut. */
  narrower: string;
  /** The working tree is compared: say which submodules have changes inside (git is told not to look, submodule-content.ts). */
  submodules?: boolean;
  /**
   * With the workspace a subfolder of its repository: the same comparison over the whole
   * repository, as git's command and its arguments before --name-only (e.g. ["diff", "--cached"]),
   * to count what the answer leaves out; and the words for what is compared.
   */
  outside: { args: readonly string[]; what: string };
}

export async function diffText(ctx: ToolContext, opts: DiffTextOptions): Promise<string> {
  const repo = await openRepository(ctx, "read");
  const paths = await pathspecs(ctx.fs, opts.paths ?? ["."]);
  // Counted only for the whole workspace: paths the caller chose are a narrowing of its own.
  const whole = opts.paths === undefined && repo.prefix !== "";
  const [result, dirty, outside] = await Promise.all([
    repo.run(opts.args(paths), { maxOutputBytes: textBudget(ctx, opts.maxChars) }),
    opts.submodules === true ? dirtySubmodules(ctx, repo, { where: paths }) : new Map<string, string[]>(),
    whole ? diffedOutside(repo, opts.outside.args) : undefined,
  ]);
  const scope = workspaceOnlyNote(repo, { what: opts.outside.what, ...(outside === undefined ? {} : { outside }) });
  const notes = [...dirty].map(
    ([path, what]) =>
      `Submodule ${repo.workspacePath(path)}: ${what.join(", ")} (a repository of its own: its changes are not in this diff)`,
  );
  const text = textResult(result, notes.length === 0 ? opts : { ...opts, empty: "" });
  return [scope === undefined ? "" : `[${scope}]`, text, ...notes].filter((t) => t !== "").join("\n");
}
