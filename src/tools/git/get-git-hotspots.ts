// getGitHotspots: the files changed most often over a recent window, a map of where work (and
// usually risk) concentrates. Plain lines, "commits path" most first, as `sort | uniq -c` would put
// them (a JSON object per file costs the model its keys again on every line); the lines each file
// gained and lost are there on request.
import * as v from "valibot";
import { countHotspots } from "../../services/git/hotspots.ts";
import { workspaceOnlyNote } from "../../services/git/partial-view.ts";
import { pathspecs } from "../../services/git/pathspec.ts";
import { openRepository } from "../../services/git/repository.ts";
import { displayName } from "../../lib/text/display-name.ts";
import { defineTool } from "../platform/define-tool.ts";
import { LimitInput, PathsInput } from "./git-inputs.ts";

/** Enough history for any window that means "recent"; bounds time and memory on huge repositories. */
const MAX_COMMITS = 5000;

export default defineTool({
  name: "getGitHotspots",
  title: "Git hotspots",
  description:
    "Lists the files changed in the most commits over the last N days (merges left out), optionally with lines added and deleted: where work and risk concentrate.",
  searchHint: "files that change most often: git hotspots, churn, frequently modified files, history risk",
  input: v.strictObject({
    days: LimitInput("How many days back to look", { fallback: 90, max: 3650 }),
    limit: LimitInput("Most files to list", { fallback: 20, max: 200 }),
    paths: PathsInput,
    lines: v.optional(v.pipe(v.boolean(), v.description("Add the lines each file gained and lost (+added -deleted).")), false),
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
    const read = commits >= MAX_COMMITS ? ` (the newest ${MAX_COMMITS} read)` : "";
    const head = `${commits} commits in ${input.days} days${read}, no merges; commits per file:`;
    const rows = files
      .slice(0, input.limit)
      .map((f) => `${f.commits}${input.lines ? ` +${f.added} -${f.deleted}` : ""} ${displayName(f.path)}`);
    const body = rows.length === 0 ? [`No file changed in the last ${input.days} days.`] : [head, ...rows];
    if (files.length > input.limit) body.push(`[${files.length - input.limit} more files: raise limit]`);
    return [...(scope === undefined ? [] : [`[${scope}]`]), ...body].join("\n");
  },
});
