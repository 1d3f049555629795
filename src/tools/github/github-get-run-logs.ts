// githubGetRunLogs: the logs of the failed steps of a GitHub Actions run, through
// `gh run view --log-failed` (gh downloads the run's log archive and picks the failed steps).
import * as v from "valibot";
import { failedStepLogs } from "../../services/github/failed-step-logs.ts";
import { github } from "../../services/github/gh-api.ts";
import { defineTool } from "../platform/define-tool.ts";
import { NumberInput, RepoInput } from "./github-inputs.ts";

export default defineTool({
  name: "githubGetRunLogs",
  title: "GitHub Actions failed logs",
  description:
    "Returns the log lines of the failed steps of a GitHub Actions run (id from githubListRuns), grouped by job and step, without timestamps; long steps keep their end.",
  searchHint: "github actions logs failed step ci error output run why build failed gh",
  input: v.strictObject({
    runId: NumberInput("The run's id (githubListRuns)."),
    maxLinesPerStep: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(10),
        v.maxValue(5000),
        v.description("Lines kept from the end of each failed step (default 300)."),
      ),
      300,
    ),
    repo: RepoInput,
  }),
  annotations: { readOnlyHint: true, openWorldHint: true },
  largeResult: true,
  async handler(input, ctx) {
    const gh = github(ctx, input.repo);
    const result = await gh.command(["run", "view", String(input.runId), "--log-failed"], { maxOutputBytes: 32 * 1024 * 1024 });
    const text = failedStepLogs(result.stdout, input.maxLinesPerStep);
    return text.trim() === "" ? `Run ${input.runId} has no failed steps with logs (it may have passed, or its logs expired).` : text;
  },
});
