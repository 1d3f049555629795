// Turns a failed git run into a ToolError that carries git's own words and says what to do next.
// Git is run with LC_ALL=C (git-environment.ts), so its messages can be recognised by wording.
import { ToolError, type ToolErrorCode } from "../../errors.ts";
import type { RunResult } from "../../capabilities/exec/exec.ts";

/** Git's message is kept whole up to this, and its end (where git says what failed) beyond it. */
const MAX_MESSAGE = 4000;

/** A failure recognised by its wording: the code and next step it gets. */
export interface FailurePattern {
  test: RegExp;
  code: ToolErrorCode;
  suggestion: string;
}

const PATTERNS: readonly FailurePattern[] = [
  // Push rejections first: their hints mention fetching and merging, which later patterns match.
  {
    test: /\(stale info\)|remote ref updated since checkout/,
    code: "push_rejected",
    suggestion:
      "The remote branch moved since your last fetch, so the lease refused the force push. gitFetch, look at what arrived (getDiffBetweenRefs), then decide again.",
  },
  {
    test: /\[remote rejected\]|pre-receive hook declined|protected branch/i,
    code: "push_rejected",
    suggestion:
      "The server refused the push (a protected branch or a server-side hook); its reason is in the message. Push a feature branch and open a pull request instead.",
  },
  {
    test: /\[rejected\]|non-fast-forward|fetch first/,
    code: "push_rejected",
    suggestion:
      "The remote has commits this branch lacks. gitPull (rebase: true keeps history linear), resolve any conflicts, then gitPush again; force only to discard the remote's commits on purpose.",
  },
  {
    test: /not a git repository/i,
    code: "not_a_repository",
    suggestion: "The workspace is not inside a git repository; run `git init` there, or open the repository's folder as the workspace.",
  },
  {
    test: /detected dubious ownership/i,
    code: "not_a_repository",
    suggestion:
      "The repository belongs to another user, so git refuses it. If you trust it, run `git config --global --add safe.directory <path>` as git's message shows.",
  },
  // Before the first commit, every command that reads HEAD fails, each in its own words.
  {
    test: /does not have any commits yet|bad default revision 'HEAD'|bad revision 'HEAD'|no such ref: HEAD|ambiguous argument 'HEAD'|do not have the initial commit yet/,
    code: "no_commits",
    suggestion: "The repository has no commits yet: make the first with gitAdd and gitCommit.",
  },
  {
    test: /cannot [a-z ]+ while (merging|rebasing|cherry-picking|reverting|bisecting)/,
    code: "operation_in_progress",
    suggestion: "An operation stopped midway; getGitStatus says which (inProgress) and how to finish or abort it.",
  },
  {
    test: /^CONFLICT|Merge conflict in|could not apply|needs merge|you need to resolve your current index first|you have unmerged files|unresolved conflict/m,
    code: "merge_conflict",
    suggestion:
      "Resolve the conflicted files (getGitStatus lists them), then gitContinueOperation with them as files stages them and goes on, or gitAbortOperation goes back; after gitStashPop, resolve and gitAdd them (the stash is kept).",
  },
  {
    test: /previous cherry-pick is now empty/,
    code: "nothing_to_commit",
    suggestion:
      "The resolution leaves this commit with no changes of its own: drop it with gitAbortOperation (skip: true), or change the files so it has some.",
  },
  {
    test: /terminal prompts disabled|could not read Username|Authentication failed|Permission denied \(publickey|Host key verification failed/i,
    code: "git_failed",
    suggestion:
      "Git needed credentials and the bridge cannot ask for them. Set up a credential helper (or `gh auth setup-git`) or an ssh-agent key, check it with `git fetch` in a terminal, then retry.",
  },
  {
    test: /Could not read from remote repository|does not appear to be a git repository|Could not resolve host|unable to access/i,
    code: "git_failed",
    suggestion: "Check the remote's URL (`git remote -v`) and the network, then retry.",
  },
  {
    test: /unknown revision|bad revision|invalid reference|ambiguous argument|invalid object name|not a valid object name|Needed a single revision|bad object/i,
    code: "invalid_ref",
    suggestion: "Check the ref: gitListBranches lists branches, getGitLog recent commits.",
  },
  {
    test: /You are not currently on a branch/,
    code: "git_failed",
    suggestion: "HEAD is detached, so there is no branch to pull into: gitCheckout a branch first.",
  },
  {
    test: /src refspec .* does not match any/,
    code: "invalid_ref",
    suggestion: "That branch does not exist here or has no commits yet: gitListBranches lists branches; commit first with gitCommit.",
  },
  {
    test: /is already checked out at|is already used by worktree/,
    code: "git_failed",
    suggestion:
      "That branch is checked out in another worktree (git's message names it): work on it there, or make a new branch here with gitCheckout (create: true).",
  },
  {
    test: /is in submodule '/,
    code: "git_failed",
    suggestion:
      "That path is inside a submodule, a repository of its own: open the submodule's folder as the workspace to stage its files; gitAdd of the submodule's own path stages its new commit here.",
  },
  {
    test: /no tracking information|has no upstream branch/,
    code: "git_failed",
    suggestion: "The branch has no upstream: pass remote and branch, or push it first with gitPush (setUpstream: true).",
  },
  {
    test: /no such path .* in|did not match any file\(s\) known to git/i,
    code: "file_not_found",
    suggestion: "The file is not tracked by git at that commit; getGitStatus lists untracked files, findFiles locates files.",
  },
  {
    test: /would be overwritten by (checkout|merge)|Your local changes/i,
    code: "git_failed",
    suggestion: "Commit or stash the local changes first (gitCommit or gitStash), then retry; gitStashPop brings stashed changes back.",
  },
  {
    test: /index\.lock': File exists|Unable to create .*\.lock/i,
    code: "git_failed",
    suggestion:
      "Another git process is running in this repository (or crashed and left index.lock); wait for it, or remove .git/index.lock if none is running.",
  },
];

/** The ToolError for a git command that exited non-zero (or timed out). */
export function gitFailure(subcommand: string, result: RunResult): ToolError {
  if (result.timedOut) {
    return new ToolError("timeout", `git ${subcommand} did not finish within its time limit`, {
      suggestion: "The remote may be slow or unreachable; retry later, or run the command in a terminal to see where it waits.",
    });
  }
  const text = gitMessage(result);
  const match = PATTERNS.find((p) => p.test.test(text));
  return new ToolError(match?.code ?? "git_failed", `git ${subcommand} failed (exit ${result.exitCode}): ${text || "no message"}`, {
    suggestion: match?.suggestion ?? "Read git's message above; getGitStatus shows the repository's state.",
  });
}

/**
 * stderr, else stdout (some failures, like merge conflicts, are reported there), trimmed to size.
 * A progress line git redrew ("Rebasing (2/3)", "\r", ESC[K or spaces) becomes a line of its own.
 */
function gitMessage(result: Pick<RunResult, "stdout" | "stderr">): string {
  const plain = (t: string) =>
    t
      .replace(/\x1b\[K/g, "")
      // Without TERM (git's environment has none) git clears a line with spaces between two \r.
      .replace(/\r(?:[ \t]*\r)+/g, "\r")
      .replace(/\r+\n?/g, "\n")
      .trim();
  const text = [plain(result.stderr), plain(result.stdout)].filter((t) => t !== "").join("\n");
  return text.length > MAX_MESSAGE ? `…${text.slice(-MAX_MESSAGE)}` : text;
}
