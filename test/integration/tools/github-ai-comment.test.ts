// AI comments without VS Code: found by search in the workspace's files (gitignored ones left out),
// and turned into GitHub issues through the real `gh` against the local stand-in for GitHub's API
// (test/helpers/fake-github.ts). The dry run sends nothing; applying files exactly one issue whose
// body links the comment's file and line at the commit checked out.
import { mkdir, mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { editorToolset } from "../../../src/tools/editor/index.ts";
import { githubToolset } from "../../../src/tools/github/index.ts";
import { startFakeGitHub, type FakeGitHub } from "../../helpers/fake-github.ts";
import { gitFixture } from "../../helpers/git-fixture.ts";
import { dispatcher, type Dispatcher } from "../../helpers/tool-dispatch.ts";

let base: string;
let gh: FakeGitHub;
let d: Dispatcher;
let head: string;

const CART = [
  "export function total(items: number[]): number {",
  "  let sum = 0;",
  "  // AI: handle an empty cart before summing",
  "  for (const item of items) sum += item;",
  "  return sum;",
  "}",
  "",
].join("\n");

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "cib-ai-issue-")));
  const fx = await gitFixture(base);
  gh = await startFakeGitHub(join(base, "server"));
  const configDir = join(base, "gh-config");
  await mkdir(join(configDir, "tmp"), { recursive: true });
  const root = await fx.repo(join(base, "work"), {
    "src/cart.ts": CART,
    "tools/build.py": "# AI: cache the wheel downloads\nprint('build')\n",
    "README.md": "Write `AI:` comments for the assistant.\n",
    ".gitignore": "dist/\n",
    "dist/cart.js": "// AI: generated, never an instruction\n",
  });
  head = fx.git(root, "rev-parse", "HEAD").trim();
  gh.on("GET", "/repos/acme/widgets", (_req, host) => ({
    json: { id: 1, full_name: "acme/widgets", default_branch: "main", html_url: `https://${host}/acme/widgets` },
  }));
  d = await dispatcher(root, { toolsets: [githubToolset, editorToolset], runtime: fx.runtime(gh.env(configDir)) });
});

afterAll(async () => {
  await gh.close();
  await rm(base, { recursive: true, force: true });
});

describe("AI comments without VS Code", () => {
  it("getAIComments finds them in every file by search, gitignored files left out", async () => {
    expect(await d.data("getAIComments", {})).toEqual({
      comments: [
        { file: "src/cart.ts", line: 3, text: "handle an empty cart before summing" },
        { file: "tools/build.py", line: 1, text: "cache the wheel downloads" },
      ],
      capped: false,
    });
  });

  it("createGithubIssueFromAIComment shows the issues in a dry run and sends nothing", async () => {
    const text = await d.text("createGithubIssueFromAIComment", {});
    expect(text.split("\n")[0]).toBe(
      `DRY RUN: 2 issues would be filed in acme/widgets (nothing sent). The links name commit ${head.slice(0, 10)}: they resolve once it is pushed. To file one: apply: true with its file and line.`,
    );
    expect(text).toContain(`[src/cart.ts:3](https://${gh.host}/acme/widgets/blob/${head}/src/cart.ts#L3)`);
    expect(text).toContain("Title: cache the wheel downloads");
    expect(gh.requests.filter((r) => r.method === "POST")).toEqual([]);
  });

  it("refuses to apply when more than one comment matches, naming them", async () => {
    const failure = await d.failure("createGithubIssueFromAIComment", { apply: true });
    expect(failure).toMatchObject({ code: "invalid_arguments", suggestion: "Pass file and line of one: src/cart.ts:3, tools/build.py:1." });
    expect((await d.failure("createGithubIssueFromAIComment", { file: "src/cart.ts", line: 4 })).code).toBe("match_not_found");
    expect(gh.requests.filter((r) => r.method === "POST")).toEqual([]);
  });

  it("files the chosen comment as one issue, quoting it with its code and linking its line", async () => {
    gh.on("POST", "/repos/acme/widgets/issues", (req, host) => ({
      status: 201,
      json: {
        id: 1012,
        number: 12,
        title: (req.body as { title: string }).title,
        state: "open",
        html_url: `https://${host}/acme/widgets/issues/12`,
        user: { login: "octocat" },
        created_at: "2024-05-01T10:00:00Z",
        updated_at: "2024-05-01T10:00:00Z",
      },
    }));
    const text = await d.text("createGithubIssueFromAIComment", { file: "src/cart.ts", line: 3, apply: true, labels: ["ai"] });
    expect(text).toBe(`Filed #12 https://${gh.host}/acme/widgets/issues/12 from src/cart.ts:3: handle an empty cart before summing`);
    const posted = gh.requests.filter((r) => r.method === "POST");
    expect(posted).toHaveLength(1);
    expect(posted[0]?.body).toEqual({
      title: "handle an empty cart before summing",
      labels: ["ai"],
      body: [
        `From an \`AI:\` comment at [src/cart.ts:3](https://${gh.host}/acme/widgets/blob/${head}/src/cart.ts#L3):`,
        "",
        "> handle an empty cart before summing",
        "",
        "```ts",
        CART.split("\n").slice(0, 6).join("\n"),
        "```",
      ].join("\n"),
    });
  });
});
