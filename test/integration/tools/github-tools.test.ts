// The github toolset through the real `gh` (Debian's gh 2.23 in CI) against a local HTTPS server
// that answers the GitHub REST paths gh calls (test/helpers/fake-github.ts). What is asserted is
// what GitHub would have received, and what the model gets back.
import { mkdir, mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BridgeEvents } from "../../../src/capabilities/events/bridge-events.ts";
import { bridgeToolset } from "../../../src/tools/bridge/index.ts";
import { githubToolset } from "../../../src/tools/github/index.ts";
import { startFakeGitHub, type FakeGitHub, type RecordedRequest } from "../../helpers/fake-github.ts";
import { gitFixture, type GitFixture } from "../../helpers/git-fixture.ts";
import { dispatcher, type Dispatcher } from "../../helpers/tool-dispatch.ts";
import { storedZip } from "../../helpers/zip-stored.ts";

let base: string;
let fx: GitFixture;
let gh: FakeGitHub;
let root: string;
let d: Dispatcher;
let configDir: string;

const user = (login: string) => ({ login, id: 1, type: "User", html_url: `https://github.example/${login}` });
const issue = (n: number, extra: Record<string, unknown> = {}) => ({
  id: 1000 + n,
  node_id: "I_x",
  number: n,
  title: `Issue ${n}`,
  state: "open",
  locked: false,
  html_url: `https://github.example/acme/widgets/issues/${n}`,
  user: user("octocat"),
  labels: [{ id: 1, name: "bug", color: "d73a4a" }],
  assignees: [user("hubot")],
  comments: 2,
  created_at: "2024-05-01T10:00:00Z",
  updated_at: "2024-05-02T10:00:00Z",
  body: "It breaks.",
  ...extra,
});
const pull = (n: number, extra: Record<string, unknown> = {}) => ({
  id: 2000 + n,
  number: n,
  title: `PR ${n}`,
  state: "open",
  draft: false,
  merged: false,
  mergeable: true,
  html_url: `https://github.example/acme/widgets/pull/${n}`,
  user: user("octocat"),
  head: { ref: "feature/login", sha: "0123456789abcdef0123456789abcdef01234567", label: "acme:feature/login" },
  base: { ref: "main", sha: "fedcba9876543210fedcba9876543210fedcba98", label: "acme:main" },
  body: "Adds the login form.",
  additions: 10,
  deletions: 2,
  changed_files: 3,
  created_at: "2024-05-01T10:00:00Z",
  updated_at: "2024-05-03T10:00:00Z",
  ...extra,
});

function last(method: string, path: string): RecordedRequest | undefined {
  return gh.requests.filter((r) => r.method === method && r.path === path).at(-1);
}

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "cib-github-")));
  fx = await gitFixture(base);
  gh = await startFakeGitHub(join(base, "server"));
  configDir = join(base, "gh-config");
  await mkdir(join(configDir, "tmp"), { recursive: true });
  root = await fx.repo(join(base, "work"), { "a.txt": "a\n" });
  fx.git(root, "switch", "--quiet", "-c", "feature/login");
  fx.git(root, "commit", "--quiet", "--allow-empty", "-m", "Add the login form\n\nWith validation and tests.");
  d = await dispatcher(root, { toolsets: [githubToolset, bridgeToolset], runtime: fx.runtime(gh.env(configDir)) });
});

afterAll(async () => {
  await gh.close();
  await rm(base, { recursive: true, force: true });
});

describe("issues", () => {
  it("githubCreateIssue sends title, body and labels as JSON, whatever they contain, and publishes the event", async () => {
    gh.on("POST", "/repos/acme/widgets/issues", { status: 201, json: issue(7) });
    const events: BridgeEvents["github.issue"][] = [];
    d.fixture.events.subscribe("github.issue", (e) => events.push(e));
    const title = "--repo=evil/other -F x=@/etc/passwd";
    const body = "--body-file /etc/passwd\n$(touch PWNED) `id`";
    expect(await d.data("githubCreateIssue", { title, body, labels: ["bug", "-x"] })).toEqual({
      number: 7,
      url: "https://github.example/acme/widgets/issues/7",
    });
    const sent = last("POST", "/repos/acme/widgets/issues");
    expect(sent).toMatchObject({ authorization: "token test-token-0123", body: { title, body, labels: ["bug", "-x"] } });
    expect(events).toEqual([{ action: "created", repo: "acme/widgets", number: 7, url: "https://github.example/acme/widgets/issues/7" }]);
  });

  it("githubGetIssue reads the issue and its comments", async () => {
    gh.on("GET", "/repos/acme/widgets/issues/7", { json: issue(7) });
    gh.on("GET", "/repos/acme/widgets/issues/7/comments", {
      json: [
        { id: 1, html_url: "https://github.example/c/1", user: user("hubot"), created_at: "2024-05-01T11:00:00Z", body: "Confirmed." },
        { id: 2, html_url: "https://github.example/c/2", user: null, created_at: "2024-05-01T12:00:00Z", body: "Me too." },
      ],
    });
    expect(await d.data("githubGetIssue", { number: 7, commentLimit: 10 })).toEqual({
      number: 7,
      title: "Issue 7",
      state: "open",
      author: "octocat",
      labels: ["bug"],
      assignees: ["hubot"],
      createdAt: "2024-05-01T10:00:00Z",
      url: "https://github.example/acme/widgets/issues/7",
      body: "It breaks.",
      isPullRequest: false,
      comments: [
        { author: "hubot", createdAt: "2024-05-01T11:00:00Z", body: "Confirmed." },
        { author: "ghost", createdAt: "2024-05-01T12:00:00Z", body: "Me too." },
      ],
      totalComments: 2,
    });
    expect(last("GET", "/repos/acme/widgets/issues/7/comments")?.query).toEqual({ per_page: "10" });
  });

  it("githubListIssues filters on GitHub's side and leaves pull requests out", async () => {
    gh.on("GET", "/repos/acme/widgets/issues", {
      json: [issue(3), issue(4, { pull_request: { url: "x" } }), issue(5, { labels: ["plain"] })],
    });
    const listed = await d.data<{ issues: { number: number; labels: string[] }[] }>("githubListIssues", {
      state: "all",
      labels: ["bug", "ui"],
      assignee: "hubot",
      limit: 5,
    });
    expect(listed.issues.map((i) => i.number)).toEqual([3, 5]);
    expect(listed.issues[1]?.labels).toEqual(["plain"]);
    expect(last("GET", "/repos/acme/widgets/issues")?.query).toEqual({
      state: "all",
      sort: "updated",
      per_page: "5",
      labels: "bug,ui",
      assignee: "hubot",
    });
  });

  it("githubCommentIssue posts the comment", async () => {
    gh.on("POST", "/repos/acme/widgets/issues/7/comments", {
      status: 201,
      json: {
        id: 99,
        html_url: "https://github.example/acme/widgets/issues/7#issuecomment-99",
        user: user("me"),
        created_at: "2024-05-05T00:00:00Z",
        body: "ok",
      },
    });
    expect(await d.data("githubCommentIssue", { number: 7, body: "Fixed in #8." })).toEqual({
      id: 99,
      url: "https://github.example/acme/widgets/issues/7#issuecomment-99",
    });
    expect(last("POST", "/repos/acme/widgets/issues/7/comments")?.body).toEqual({ body: "Fixed in #8." });
  });

  it("a missing issue is github_not_found; another repository is addressed by repo", async () => {
    const missing = await d.failure("githubGetIssue", { number: 404404 });
    expect(missing.code).toBe("github_not_found");
    expect(missing.error).toMatch(/HTTP 404/);
    gh.on("GET", "/repos/other-org/tools/issues/1", {
      json: issue(1, { html_url: "https://github.example/other-org/tools/issues/1", comments: 0 }),
    });
    expect(await d.data("githubGetIssue", { number: 1, repo: "other-org/tools" })).toMatchObject({ number: 1, comments: [] });
    expect((await d.failure("githubGetIssue", { number: 1, repo: "../../user" })).code).toBe("invalid_arguments");
  });
});

describe("pull requests", () => {
  it("githubCreatePR: from the current branch into the default branch, title and body from the last commit", async () => {
    gh.on("GET", "/repos/acme/widgets", { json: { id: 1, full_name: "acme/widgets", default_branch: "main", private: false } });
    gh.on("POST", "/repos/acme/widgets/pulls", { status: 201, json: pull(8) });
    const events: BridgeEvents["github.pullRequest"][] = [];
    d.fixture.events.subscribe("github.pullRequest", (e) => events.push(e));
    expect(await d.data("githubCreatePR", {})).toEqual({
      number: 8,
      url: "https://github.example/acme/widgets/pull/8",
      head: "feature/login",
      base: "main",
      draft: false,
    });
    expect(last("POST", "/repos/acme/widgets/pulls")?.body).toEqual({
      title: "Add the login form",
      head: "feature/login",
      base: "main",
      body: "With validation and tests.",
      draft: false,
    });
    expect(events).toEqual([{ action: "created", repo: "acme/widgets", number: 8, url: "https://github.example/acme/widgets/pull/8" }]);
  });

  it("githubCreatePR: GitHub's refusal says to push first", async () => {
    gh.on("POST", "/repos/acme/widgets/pulls", {
      status: 422,
      json: {
        message: "Validation Failed",
        errors: [{ resource: "PullRequest", field: "head", code: "invalid" }, "No commits between main and feature/login"],
      },
    });
    const refused = await d.failure("githubCreatePR", { title: "T", base: "main", draft: true });
    expect(refused.code).toBe("github_failed");
    expect(refused.error).toMatch(/Validation Failed.*No commits between main and feature\/login/);
    expect(refused.suggestion).toMatch(/gitPush with setUpstream/);
  });

  it("githubListPRs and githubViewPR (by number, and the current branch's)", async () => {
    gh.on("GET", "/repos/acme/widgets/pulls", { json: [pull(8), pull(9, { head: { ref: "other", sha: "1".repeat(40) }, draft: true })] });
    gh.on("GET", "/repos/acme/widgets/pulls/8", { json: pull(8, { mergeable: null }) });
    const listed = await d.data<{ pullRequests: unknown[] }>("githubListPRs", { base: "main" });
    expect(listed.pullRequests).toEqual([
      {
        number: 8,
        title: "PR 8",
        state: "open",
        draft: false,
        author: "octocat",
        head: "feature/login",
        base: "main",
        updatedAt: "2024-05-03T10:00:00Z",
      },
      {
        number: 9,
        title: "PR 9",
        state: "open",
        draft: true,
        author: "octocat",
        head: "other",
        base: "main",
        updatedAt: "2024-05-03T10:00:00Z",
      },
    ]);
    expect(last("GET", "/repos/acme/widgets/pulls")?.query).toMatchObject({ state: "open", base: "main" });
    const viewed = await d.data("githubViewPR", {});
    expect(viewed).toMatchObject({
      number: 8,
      head: "feature/login",
      mergeable: null,
      changedFiles: 3,
      additions: 10,
      deletions: 2,
      headSha: "0123456789",
      body: "Adds the login form.",
    });
    expect(await d.data("githubViewPR", { number: 8 })).toEqual(viewed);
  });

  it("githubGetPRDiff asks for the diff media type and cuts it at 256 KB", async () => {
    const hunk = `diff --git a/x.ts b/x.ts\n--- a/x.ts\n+++ b/x.ts\n@@ -1 +1 @@\n-old\n+${"n".repeat(60)}\n`;
    gh.on("GET", "/repos/acme/widgets/pulls/8", (req) => (req.accept.includes("diff") ? { text: hunk.repeat(4000) } : { json: pull(8) }));
    const text = await d.text("githubGetPRDiff", { number: 8 });
    expect(last("GET", "/repos/acme/widgets/pulls/8")?.accept).toBe("application/vnd.github.diff");
    expect(text.startsWith("diff --git a/x.ts b/x.ts")).toBe(true);
    expect(text).toMatch(/\[output cut at \d+ characters; fetch its branch/);
    expect(text.length).toBeLessThanOrEqual(256 * 1024 + 300);
  });

  it("githubPostPRReview sends the event, summary and line comments; approval is not on offer", async () => {
    gh.on("POST", "/repos/acme/widgets/pulls/8/reviews", {
      json: { id: 55, state: "CHANGES_REQUESTED", html_url: "https://github.example/acme/widgets/pull/8#pullrequestreview-55" },
    });
    const review = await d.data("githubPostPRReview", {
      number: 8,
      event: "REQUEST_CHANGES",
      body: "Two things.",
      comments: [{ path: "src/login.ts", line: 12, body: "Validate the email." }],
    });
    expect(review).toEqual({ id: 55, state: "CHANGES_REQUESTED", url: "https://github.example/acme/widgets/pull/8#pullrequestreview-55" });
    expect(last("POST", "/repos/acme/widgets/pulls/8/reviews")?.body).toEqual({
      event: "REQUEST_CHANGES",
      body: "Two things.",
      comments: [{ path: "src/login.ts", line: 12, side: "RIGHT", body: "Validate the email." }],
    });
    expect((await d.failure("githubPostPRReview", { number: 8, event: "APPROVE", body: "lgtm" })).code).toBe("invalid_arguments");
    expect(
      (
        await d.failure("githubPostPRReview", {
          number: 8,
          event: "COMMENT",
          body: "x",
          comments: [{ path: "../etc/passwd", line: 1, body: "x" }],
        })
      ).code,
    ).toBe("invalid_arguments");
  });
});

describe("actions", () => {
  const run = (id: number, host: string, extra: Record<string, unknown> = {}) => ({
    id,
    name: "CI",
    display_title: "Add the login form",
    status: "completed",
    conclusion: "failure",
    head_branch: "feature/login",
    head_sha: "0123456789abcdef0123456789abcdef01234567",
    event: "push",
    workflow_id: 7,
    run_attempt: 1,
    created_at: "2024-05-01T10:00:00Z",
    updated_at: "2024-05-01T10:05:00Z",
    run_started_at: "2024-05-01T10:00:00Z",
    html_url: `https://github.example/acme/widgets/actions/runs/${id}`,
    jobs_url: `https://${host}/api/v3/repos/acme/widgets/actions/runs/${id}/jobs`,
    logs_url: `https://${host}/api/v3/repos/acme/widgets/actions/runs/${id}/logs`,
    ...extra,
  });

  it("githubListRuns, for a workflow and a status", async () => {
    gh.on("GET", "/repos/acme/widgets/actions/workflows/ci.yml/runs", (_req, host) => ({
      json: { total_count: 12, workflow_runs: [run(42, host), run(41, host, { conclusion: "success", head_branch: null })] },
    }));
    const runs = await d.data<{ runs: Record<string, unknown>[]; total: number }>("githubListRuns", {
      workflow: "ci.yml",
      status: "failure",
      branch: "feature/login",
      limit: 2,
    });
    expect(runs.total).toBe(12);
    expect(runs.runs[0]).toEqual({
      id: 42,
      workflow: "CI",
      title: "Add the login form",
      status: "completed",
      conclusion: "failure",
      branch: "feature/login",
      commit: "0123456789",
      event: "push",
      createdAt: "2024-05-01T10:00:00Z",
      url: "https://github.example/acme/widgets/actions/runs/42",
    });
    expect(runs.runs[1]).toMatchObject({ conclusion: "success", branch: null });
    expect(last("GET", "/repos/acme/widgets/actions/workflows/ci.yml/runs")?.query).toEqual({
      per_page: "2",
      branch: "feature/login",
      status: "failure",
    });
  });

  it("githubGetRunLogs: the failed steps' lines, grouped, from gh's download of the run's log archive", async () => {
    gh.on("GET", "/repos/acme/widgets/actions/runs/42", (_req, host) => ({ json: run(42, host) }));
    gh.on("GET", "/repos/acme/widgets/actions/workflows/7", {
      json: { id: 7, name: "CI", path: ".github/workflows/ci.yml", state: "active" },
    });
    gh.on("GET", "/repos/acme/widgets/actions/runs/42/jobs", {
      json: {
        total_count: 1,
        jobs: [
          {
            id: 100,
            run_id: 42,
            name: "build",
            status: "completed",
            conclusion: "failure",
            started_at: "2024-05-01T10:00:00Z",
            completed_at: "2024-05-01T10:05:00Z",
            steps: [
              { name: "Set up job", status: "completed", conclusion: "success", number: 1 },
              { name: "Run tests", status: "completed", conclusion: "failure", number: 2 },
            ],
          },
        ],
      },
    });
    gh.on("GET", "/repos/acme/widgets/actions/runs/42/logs", {
      bytes: storedZip({
        "build/1_Set up job.txt": "2024-05-01T10:00:00.0000000Z Runner image ubuntu-24.04\n",
        "build/2_Run tests.txt":
          "2024-05-01T10:01:00.0000000Z \u001b[31mFAIL\u001b[0m src/login.test.ts\n2024-05-01T10:01:01.0000000Z expected 'a' to be 'b'\n",
      }),
    });
    const logs = await d.text("githubGetRunLogs", { runId: 42 });
    expect(logs).toBe("== build / Run tests\nFAIL src/login.test.ts\nexpected 'a' to be 'b'\n");
  });
});

describe("gh missing or not logged in", () => {
  it("getToolCapabilities lists every github tool as unavailable, saying how to log in", async () => {
    const caps = await d.data<{ unavailable: unknown[] }>("getToolCapabilities");
    expect(caps.unavailable).toEqual([]);
    const loggedOut = await dispatcher(root, {
      toolsets: [githubToolset, bridgeToolset],
      runtime: fx.runtime(gh.env(join(base, "empty-gh-config"), { token: false })),
    });
    const out = await loggedOut.data<{ unavailable: { tools: string[]; reason: string; suggestion: string }[] }>("getToolCapabilities");
    // One reason, said once, with every GitHub tool it applies to.
    expect(out.unavailable).toHaveLength(1);
    expect([...(out.unavailable[0]?.tools ?? [])].sort()).toEqual(githubToolset.tools.map((t) => t.name).sort());
    expect(out.unavailable[0]).toMatchObject({
      reason: `gh is not logged in to ${gh.host}`,
      suggestion: expect.stringMatching(/gh auth login.*GH_ENTERPRISE_TOKEN/),
    });
    const refused = await loggedOut.failure("githubListIssues", {});
    expect(refused.code).toBe("github_auth_required");
    expect(refused.suggestion).toMatch(/gh auth login/);
  });

  it("without gh on PATH the tools are unavailable and refused with the fix", async () => {
    const noGh = await dispatcher(root, {
      toolsets: [githubToolset, bridgeToolset],
      runtime: fx.runtime({ PATH: join(base, "empty-bin") }),
    });
    const out = await noGh.data<{ unavailable: { tools: string[]; reason: string }[] }>("getToolCapabilities");
    expect(out.unavailable.find((u) => u.tools.includes("githubListIssues"))).toMatchObject({ reason: "needs `gh` on PATH" });
    expect((await noGh.failure("githubListIssues", {})).code).toBe("probe_missing");
  });
});
