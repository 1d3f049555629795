// gitCommit: commits what is staged (after staging `files`, when given). The message goes to git on
// stdin (`-F -`), so no text in it can be read as an option. Empty commits are refused. The
// repository's hooks run only when the user started the bridge with --allow-git-hooks; otherwise
// the answer names those that exist and did not run (a lint hook's verdict is not implied).
import * as v from "valibot";
import { ToolError } from "../../errors.ts";
import { NO_DIFF_PROGRAMS } from "../../services/git/git-environment.ts";
import { currentBranch, shortHash } from "../../services/git/head.ts";
import { HOW_TO_FINISH, operationInProgress } from "../../services/git/operation.ts";
import { pathspecs } from "../../services/git/pathspec.ts";
import { openRepository, type Repository } from "../../services/git/repository.ts";
import { committedFiles } from "../../services/git/staged-files.ts";
import { diffedOutside } from "../../services/git/partial-view.ts";
import { refuseOutside } from "../../services/git/workspace-scope.ts";
import { hooksNote, skippedHooks } from "../../services/git/skipped-hooks.ts";
import { defineTool } from "../platform/define-tool.ts";
import { PathsInput } from "./git-inputs.ts";

const MAX_LISTED = 500;
const COMMIT_HOOKS = ["pre-commit", "prepare-commit-msg", "commit-msg", "post-commit"];

export default defineTool({
  name: "gitCommit",
  title: "Git commit",
  description:
    "Commits the staged changes with a message; with files, stages those first. Refuses an empty commit. Returns the new commit's hash, branch and files, and any repository hooks it did not run.",
  searchHint: "git commit save changes message staged snapshot record",
  input: v.strictObject({
    message: v.pipe(
      v.string(),
      v.maxLength(100_000),
      v.regex(/^(?=[\s\S]*\S)[^\x00]*$/, "must not be empty or contain NUL"),
      v.description("Subject line, optionally a blank line and body."),
    ),
    files: PathsInput,
  }),
  output: v.object({
    hash: v.string(),
    branch: v.pipe(v.nullable(v.string()), v.description("null when HEAD is detached.")),
    subject: v.string(),
    files: v.pipe(v.array(v.string()), v.description(`Files the commit changed (at most ${MAX_LISTED}).`)),
    omitted: v.optional(v.pipe(v.number(), v.description("Changed files left out of the list."))),
    outsideWorkspace: v.optional(
      v.pipe(
        v.array(v.string()),
        v.description(
          "With the workspace a subfolder of its repository: files outside it that the commit concluding a merge, cherry-pick or revert took in (relative to the top level).",
        ),
      ),
    ),
    hooksNotRun: v.optional(
      v.pipe(
        v.array(v.string()),
        v.description(
          "The repository's commit hooks that exist and were not run (the bridge runs none without --allow-git-hooks): run them yourself, e.g. the lint they call, or commit in a terminal.",
        ),
      ),
    ),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false },
  async handler(input, ctx) {
    const repo = await openRepository(ctx, "write");
    const branch = await currentBranch(repo);
    // A commit in a stopped rebase is a commit of its own: the rebase stays stopped, the rest of
    // its commits unapplied, which is never what "commit the resolution" meant.
    if (branch === null && (await operationInProgress(repo, { detached: true })) === "rebase") {
      throw new ToolError("operation_in_progress", "A rebase is in progress, and a commit would not continue it", {
        suggestion: `To go on: ${HOW_TO_FINISH.rebase}.`,
      });
    }
    // git commits the whole index: with the workspace a subfolder of its repository, files staged
    // beside it (by someone at the top level) would go into a commit the answer lists as the workspace's.
    const outside = await diffedOutside(repo, ["diff", "--cached"]);
    const concluding = outside.paths.length > 0 && (await operationInProgress(repo)) !== null;
    if (!concluding) {
      refuseOutside(repo, {
        what: "This commit",
        paths: outside.paths,
        suggestion:
          "They were staged outside the workspace: commit in a terminal at the repository's top level, or unstage them there (git restore --staged <path>) and commit again.",
      });
    }
    if (input.files !== undefined) await repo.run(["add", "--", ...(await pathspecs(ctx.fs, input.files))]);
    await refuseEmpty(repo);
    await repo.run(["commit", "--quiet", "--file=-"], { stdin: input.message });
    const [hash, files, skipped] = await Promise.all([
      shortHash(repo),
      committedFiles(repo),
      skippedHooks(ctx, repo, { names: COMMIT_HOOKS }),
    ]);
    const subject = input.message.trim().split("\n")[0] ?? "";
    ctx.events.publish("git.commit", { hash, branch, subject, files: files.length });
    return {
      hash,
      branch,
      subject,
      files: files.slice(0, MAX_LISTED),
      ...(files.length > MAX_LISTED ? { omitted: files.length - MAX_LISTED } : {}),
      ...(concluding ? { outsideWorkspace: outside.paths.slice(0, MAX_LISTED) } : {}),
      ...hooksNote(skipped),
    };
  },
});

async function refuseEmpty(repo: Repository): Promise<void> {
  const staged = await repo.run(["diff", ...NO_DIFF_PROGRAMS, "--cached", "--quiet", "--", "."], { okExitCodes: [1] });
  if (staged.exitCode === 1) return;
  // Concluding a merge whose resolution equals HEAD is a real commit, though nothing differs.
  const merging = await repo.run(["rev-parse", "--quiet", "--verify", "MERGE_HEAD"], { okExitCodes: [1] });
  if (merging.exitCode === 0) return;
  const changed = (await repo.output(["status", "--porcelain", "-z", "--", "."])).split("\0").filter((r) => r !== "").length;
  throw new ToolError("nothing_to_commit", "Nothing is staged, so there is nothing to commit", {
    suggestion:
      changed > 0
        ? `${changed} changed or untracked path(s) are not staged: stage them with gitAdd (or pass files), then commit.`
        : "The working tree is clean: make changes first.",
  });
}
