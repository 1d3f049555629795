// githubListRuns: recent GitHub Actions workflow runs, to see whether CI passed; a failed run's id
// goes to githubGetRunLogs.
import * as v from "valibot";
import { branchName } from "../../services/git/refs.ts";
import { github } from "../../services/github/gh-api.ts";
import { RunsShape } from "../../services/github/rest-shapes.ts";
import { defineTool } from "../platform/define-tool.ts";
import { LimitInput, RepoInput } from "./github-inputs.ts";

const STATUSES = [
  "queued",
  "in_progress",
  "completed",
  "success",
  "failure",
  "cancelled",
  "skipped",
  "timed_out",
  "action_required",
] as const;

export default defineTool({
  name: "githubListRuns",
  title: "List GitHub Actions runs",
  description:
    "Lists recent GitHub Actions workflow runs, newest first: id, workflow, status, conclusion, branch and commit; filter by branch, workflow file or status.",
  searchHint: "github actions ci runs passing workflow status build failed checks pipeline gh",
  input: v.strictObject({
    branch: v.optional(v.pipe(v.string(), v.description("Only runs for this branch."))),
    workflow: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,99}$/, "a workflow file name or id"),
        v.description('Workflow file name such as "ci.yml", or its id.'),
      ),
    ),
    status: v.optional(v.pipe(v.picklist(STATUSES), v.description('e.g. "failure", "in_progress", "completed".'))),
    limit: LimitInput,
    repo: RepoInput,
  }),
  output: v.object({
    runs: v.array(
      v.object({
        id: v.number(),
        workflow: v.string(),
        title: v.string(),
        status: v.string(),
        conclusion: v.nullable(v.string()),
        branch: v.nullable(v.string()),
        commit: v.string(),
        event: v.string(),
        createdAt: v.string(),
        url: v.string(),
      }),
    ),
    total: v.number(),
  }),
  annotations: { readOnlyHint: true, openWorldHint: true },
  async handler(input, ctx) {
    const gh = github(ctx, input.repo);
    const path = input.workflow === undefined ? `${gh.repoPath}/actions/runs` : `${gh.repoPath}/actions/workflows/${input.workflow}/runs`;
    const query = {
      per_page: input.limit,
      branch: input.branch === undefined ? undefined : branchName(input.branch),
      status: input.status,
    };
    const answer = await gh.json(RunsShape, "GET", path, { query });
    const runs = answer.workflow_runs.map((r) => ({
      id: r.id,
      workflow: r.name ?? "",
      title: r.display_title ?? "",
      status: r.status ?? "unknown",
      conclusion: r.conclusion ?? null,
      branch: r.head_branch ?? null,
      commit: r.head_sha.slice(0, 10),
      event: r.event,
      createdAt: r.created_at,
      url: r.html_url,
    }));
    return { runs, total: answer.total_count };
  },
});
