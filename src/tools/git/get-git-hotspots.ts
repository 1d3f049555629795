// getGitHotspots: the files changed most often over a recent window, a map of where work (and
// usually risk) concentrates.
import * as v from "valibot";
import { countHotspots } from "../../services/git/hotspots.ts";
import { workspaceOnlyNote } from "../../services/git/partial-view.ts";
import { pathspecs } from "../../services/git/pathspec.ts";
import { openRepository } from "../../services/git/repository.ts";
import { defineTool } from "../platform/define-tool.ts";
import { LimitInput, PathsInput } from "./git-inputs.ts";

/** Enough history for any window that means "recent"; bounds time and memory on huge repositories. */
const MAX_COMMITS = 5000;

export default defineTool({
  name: "getGitHotspots",
  title: "Git hotspots",
  description:
    "Lists the files changed in the most commits over the last N days (merges left out), with lines added and deleted: where work and risk concentrate.",
  searchHint: "files that change most often: git hotspots, churn, frequently modified files, history risk",
  input: v.strictObject({
    days: LimitInput("How many days back to look", { fallback: 90, max: 3650 }),
    limit: LimitInput("Most files to list", { fallback: 20, max: 200 }),
    paths: PathsInput,
  }),
  output: v.object({
    days: v.number(),
    commits: v.pipe(v.number(), v.description(`Commits in the window (at most ${MAX_COMMITS} are read).`)),
    files: v.array(v.object({ path: v.string(), commits: v.number(), added: v.number(), deleted: v.number() })),
    scope: v.optional(v.pipe(v.string(), v.description("With the workspace a subfolder of its repository: what was counted."))),
  }),
  annotations: { readOnlyHint: true },
  async handler(input, ctx) {
    const repo = await openRepository(ctx, "read");
    const paths = await pathspecs(ctx.fs, input.paths ?? ["."]);
    const args = [
      "log",
      `--since=${input.days}.days.ago`,
      `--max-count=${MAX_COMMITS}`,
      "--no-merges",
      "--no-renames",
      "--numstat",
      "--format=%x1e",
      "-z",
      "--relative",
      "--",
      ...paths,
    ];
    const { commits, files } = countHotspots(await repo.output(args, { maxOutputBytes: 64 * 1024 * 1024 }));
    const scope = workspaceOnlyNote(repo, { what: "files and commits" });
    return { days: input.days, commits, files: files.slice(0, input.limit), ...(scope === undefined ? {} : { scope }) };
  },
});
