// getGitStatus: branch, upstream, ahead/behind and every changed path of the workspace, from
// `git status --porcelain=v2 --branch -z` (stable, NUL-separated: every file name parses).
import * as v from "valibot";
import { HOW_TO_FINISH, OPERATIONS, operationInProgress } from "../../git/operation.ts";
import { openRepository } from "../../git/repository.ts";
import { pathspec } from "../../git/pathspec.ts";
import { parsePorcelainV2, type ParsedStatus, type StatusChange } from "../../git/status-parser.ts";
import { defineTool } from "../define-tool.ts";

/** Per list; a tree with thousands of untracked files (an unignored build) says so instead. */
const MAX_ENTRIES = 500;

const Change = v.object({
  path: v.string(),
  change: v.picklist(["modified", "added", "deleted", "renamed", "copied", "typechange"]),
  from: v.optional(v.pipe(v.string(), v.description("Original path of a rename or copy."))),
  submodule: v.optional(v.pipe(v.string(), v.description('For a submodule, what changed inside it: "new commits", "modified content", "untracked content"; its own files are in its own repository.'))),
});

export default defineTool({
  name: "getGitStatus",
  title: "Git status",
  description: "Shows the branch, its upstream, ahead/behind counts and the staged, unstaged, untracked and conflicted files of the workspace repository.",
  searchHint: "git status which files modified changed staged unstaged untracked branch ahead behind conflicts",
  input: v.strictObject({
    path: v.optional(v.pipe(v.string(), v.description("Only changes under this file or directory (default: the whole workspace)."))),
  }),
  output: v.object({
    branch: v.pipe(v.nullable(v.string()), v.description("null when HEAD is detached.")),
    commit: v.pipe(v.nullable(v.string()), v.description("HEAD's short hash; null before the first commit.")),
    upstream: v.nullable(v.string()),
    ahead: v.number(),
    behind: v.number(),
    staged: v.array(Change),
    unstaged: v.array(Change),
    untracked: v.array(v.string()),
    conflicts: v.array(v.object({ path: v.string(), conflict: v.string() })),
    clean: v.boolean(),
    inProgress: v.optional(
      v.pipe(v.object({ operation: v.picklist(OPERATIONS), next: v.string() }), v.description("A merge, rebase, cherry-pick, revert or bisect that stopped midway, and how to finish or abort it.")),
    ),
    omitted: v.optional(v.pipe(v.number(), v.description(`Entries left out: each list holds at most ${MAX_ENTRIES}.`))),
  }),
  annotations: { readOnlyHint: true },
  requires: { probes: ["git"] },
  async handler(input, ctx) {
    const repo = await openRepository(ctx, "read");
    const where = input.path === undefined ? "." : await pathspec(ctx.fs, input.path);
    const out = await repo.output(["status", "--porcelain=v2", "--branch", "-z", "--untracked-files=all", "--", where], { maxOutputBytes: 16 * 1024 * 1024 });
    const status = parsePorcelainV2(out);
    const operation = await operationInProgress(repo, { detached: status.branch === null && status.commit !== null });
    const local = (p: string) => repo.workspacePath(p);
    const move = (c: StatusChange): StatusChange => ({ ...c, path: local(c.path), ...(c.from === undefined ? {} : { from: local(c.from) }) });
    const relocated: ParsedStatus = {
      ...status,
      staged: status.staged.map(move),
      unstaged: status.unstaged.map(move),
      untracked: status.untracked.map(local),
      conflicts: status.conflicts.map((c) => ({ ...c, path: local(c.path) })),
    };
    let omitted = 0;
    const cap = <T>(list: T[]): T[] => {
      omitted += Math.max(0, list.length - MAX_ENTRIES);
      return list.slice(0, MAX_ENTRIES);
    };
    const clean = status.staged.length + status.unstaged.length + status.untracked.length + status.conflicts.length === 0;
    return {
      branch: relocated.branch,
      commit: relocated.commit === null ? null : relocated.commit.slice(0, 10),
      upstream: relocated.upstream,
      ahead: relocated.ahead,
      behind: relocated.behind,
      staged: cap(relocated.staged),
      unstaged: cap(relocated.unstaged),
      untracked: cap(relocated.untracked),
      conflicts: cap(relocated.conflicts),
      clean,
      ...(operation === null ? {} : { inProgress: { operation, next: HOW_TO_FINISH[operation] } }),
      ...(omitted > 0 ? { omitted } : {}),
    };
  },
});
