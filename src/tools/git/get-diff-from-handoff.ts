// getDiffFromHandoff: what changed since the last session left its handoff note. The note records
// when it was written (services/notes/handoff-note.ts); the commit HEAD was on then is the last
// commit on HEAD's first-parent line committed at or before that time, and the diff runs from it
// to the working tree (commits since, staged and unstaged changes alike). New untracked files are
// named too, since git's diff does not show them.
import * as v from "valibot";
import { ToolError } from "../../errors.ts";
import { diffText } from "../../services/git/diff-text.ts";
import { NO_DIFF_PROGRAMS } from "../../services/git/git-environment.ts";
import { openRepository } from "../../services/git/repository.ts";
import { readHandoff } from "../../services/notes/handoff-note.ts";
import { defineTool } from "../platform/define-tool.ts";

const MAX_UNTRACKED_NAMED = 20;

export default defineTool({
  name: "getDiffFromHandoff",
  title: "Diff since the handoff note",
  description:
    "Shows what changed in the repository since the handoff note was written: the commits made since and the diff from then to the working tree, new untracked files named.",
  searchHint: "diff since handoff note what changed since last session catch up changes since previous session",
  input: v.strictObject({
    stat: v.optional(v.pipe(v.boolean(), v.description("Per-file line counts instead of the full diff.")), false),
  }),
  annotations: { readOnlyHint: true },
  largeResult: true,
  async handler(input, ctx) {
    const note = await readHandoff(ctx);
    if (note === undefined)
      throw new ToolError("not_detected", "There is no handoff note in this workspace, so there is no time to diff from", {
        suggestion: "setHandoffNote leaves one at the end of a session; getGitDiff or getGitLog show changes meanwhile.",
      });
    const written = Date.parse(note.updatedAt);
    if (Number.isNaN(written))
      throw new ToolError("not_detected", "The handoff note does not record when it was written (it was not written by setHandoffNote)", {
        suggestion: "Set it again with setHandoffNote, or compare refs with getDiffBetweenRefs.",
      });
    const repo = await openRepository(ctx, "read");
    const seconds = Math.floor(written / 1000);
    const base = (await repo.output(["rev-list", "-1", "--first-parent", `--before=${seconds}`, "HEAD", "--"])).trim();
    if (base === "")
      throw new ToolError("no_commits", `HEAD has no commit from before the handoff note (${note.updatedAt})`, {
        suggestion: "The history was rewritten or started after the note; getGitLog shows what there is.",
      });
    const commits = (await repo.output(["log", "--first-parent", "--format=%h %s", `${base}..HEAD`, "--"])).trim();
    const untracked = (await repo.output(["ls-files", "--others", "--exclude-standard", "-z", "--", "."]))
      .split("\0")
      .filter((p) => p !== "");
    const diff = await diffText(ctx, {
      paths: undefined,
      args: (paths) => [
        "diff",
        ...NO_DIFF_PROGRAMS,
        "--relative",
        ...(input.stat ? ["--numstat"] : []),
        "--end-of-options",
        base,
        "--",
        ...paths,
      ],
      empty: "No tracked file differs from then.",
      narrower: "pass stat: true for per-file counts, or getGitDiff with paths",
      outside: { args: ["diff", "--end-of-options", base], what: "differences" },
    });
    const commitLines =
      commits === ""
        ? ["No commit since."]
        : [`Commits since (${commits.split("\n").length}):`, ...commits.split("\n").map((c) => `  ${c}`)];
    const newFiles =
      untracked.length === 0
        ? []
        : [
            `Untracked files (${untracked.length}; not in the diff): ${untracked.slice(0, MAX_UNTRACKED_NAMED).join(", ")}${untracked.length > MAX_UNTRACKED_NAMED ? ", …" : ""}`,
          ];
    return [
      `Since the handoff note of ${note.updatedAt}${note.session ? ` (session ${note.session})` : ""}: from ${base.slice(0, 10)}, HEAD's last commit then, to the working tree.`,
      ...commitLines,
      ...newFiles,
      diff,
    ].join("\n");
  },
});
