// getGitStatus: branch, upstream, ahead/behind and every changed path of the workspace, from
// `git status --porcelain=v2 --branch -z` (stable, NUL-separated: every file name parses). Output
// past the cap is cut at its last whole record, and the result says so.
import * as v from "valibot";
import { HOW_TO_FINISH, OPERATIONS, operationInProgress } from "../../services/git/operation.ts";
import { STATUS_MAX_BYTES } from "../../services/git/operation-state.ts";
import { changedOutside, workspaceOnlyNote } from "../../services/git/partial-view.ts";
import { openRepository } from "../../services/git/repository.ts";
import { pathspec } from "../../services/git/pathspec.ts";
import { dirtySubmodules } from "../../services/git/submodule-content.ts";
import { parsePorcelainV2, type ParsedStatus, type StatusChange } from "../../services/git/status-parser.ts";
import { defineTool, type Tool } from "../platform/define-tool.ts";

/** Per list; a tree with thousands of untracked files (an unignored build) says so instead. */
const MAX_ENTRIES = 500;

const Change = v.object({
  path: v.string(),
  change: v.picklist(["modified", "added", "deleted", "renamed", "copied", "typechange"]),
  from: v.optional(v.pipe(v.string(), v.description("Original path of a rename or copy."))),
  submodule: v.optional(
    v.pipe(
      v.string(),
      v.description(
        'For a submodule, what changed inside it: "new commits", "modified content", "untracked content"; its own files are in its own repository.',
      ),
    ),
  ),
});

/** The tool with git's output capped at `maxOutputBytes`: tests pass a small cap to see a cut. */
export function gitStatusTool(maxOutputBytes = STATUS_MAX_BYTES): Tool {
  const capText = maxOutputBytes % (1024 * 1024) === 0 ? `${maxOutputBytes / (1024 * 1024)} MB` : `${maxOutputBytes} bytes`;
  return defineTool({
    name: "getGitStatus",
    title: "Git status",
    description:
      "Shows the branch, its upstream, ahead/behind counts and the staged, unstaged, untracked and conflicted files of the workspace repository.",
    searchHint:
      "which files are modified or changed in my working tree: staged, unstaged, untracked; git status, branch, ahead, behind, conflicts",
    input: v.strictObject({
      path: v.optional(v.pipe(v.string(), v.description("Only changes under this path."))),
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
      clean: v.pipe(v.boolean(), v.description("Nothing changed in what was listed (see scope in a subfolder of a repository).")),
      scope: v.optional(
        v.pipe(
          v.string(),
          v.description("With the workspace a subfolder of its repository: that only its part is listed, and what changed beside it."),
        ),
      ),
      inProgress: v.optional(
        v.pipe(
          v.object({ operation: v.picklist(OPERATIONS), next: v.string() }),
          v.description("A merge, rebase, cherry-pick, revert or bisect that stopped midway, and how to finish or abort it."),
        ),
      ),
      omitted: v.optional(v.pipe(v.number(), v.description(`Entries left out: each list holds at most ${MAX_ENTRIES}.`))),
      truncated: v.optional(
        v.pipe(
          v.literal(true),
          v.description(
            `git's output passed ${capText} and was cut: entries after the cut are in no list and not counted in omitted; pass path for a part of the tree.`,
          ),
        ),
      ),
    }),
    annotations: { readOnlyHint: true },
    async handler(input, ctx) {
      const repo = await openRepository(ctx, "read");
      const where = input.path === undefined ? "." : await pathspec(ctx.fs, input.path);
      // Side by side: the operation probes do not need the status, only time.
      const [out, operation, submodules, outside] = await Promise.all([
        repo.run(["status", "--porcelain=v2", "--branch", "-z", "--untracked-files=all", "--", where], { maxOutputBytes }),
        operationInProgress(repo),
        dirtySubmodules(ctx, repo, { where: [where] }),
        // A package of a monorepo is not the repository: what changed beside it is counted, not listed.
        changedOutside(repo),
      ]);
      const scope = workspaceOnlyNote(repo, { outside, what: "changes" });
      const status = withSubmoduleContent(parsePorcelainV2(out.stdout, { cut: out.stdoutTruncated }), submodules);
      const local = (p: string) => repo.workspacePath(p);
      const move = (c: StatusChange): StatusChange => ({
        ...c,
        path: local(c.path),
        ...(c.from === undefined ? {} : { from: local(c.from) }),
      });
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
        ...(scope === undefined ? {} : { scope }),
        ...(operation === null ? {} : { inProgress: { operation, next: HOW_TO_FINISH[operation] } }),
        ...(omitted > 0 ? { omitted } : {}),
        ...(out.stdoutTruncated ? { truncated: true as const } : {}),
      };
    },
  });
}

export default gitStatusTool();

/** Adds what changed inside submodules (asked of each, src/services/git/submodule-content.ts) to git's entries. */
function withSubmoduleContent(status: ParsedStatus, dirty: ReadonlyMap<string, string[]>): ParsedStatus {
  if (dirty.size === 0) return status;
  const unstaged = status.unstaged.map((c) => {
    const what = dirty.get(c.path);
    if (what === undefined) return c;
    const commits = c.submodule === "new commits" ? ["new commits"] : [];
    return { ...c, submodule: [...commits, ...what].join(", ") };
  });
  for (const [path, what] of dirty) {
    if (!unstaged.some((c) => c.path === path)) unstaged.push({ path, change: "modified", submodule: what.join(", ") });
  }
  return { ...status, unstaged };
}
