// The git tools in the states a repository is really found in, on real temporary repositories:
// before the first commit, with HEAD detached, mid-merge, mid-rebase and mid-cherry-pick, in a
// linked worktree, with a submodule, and with thousands of commits and changed files. Each either
// works or says what state it found and what to do.
import { execFileSync } from "node:child_process";
import { appendFile, mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gitToolset } from "../../../src/tools/git/index.ts";
import { gitFixture, type GitFixture } from "../../helpers/git-fixture.ts";
import { dispatcher, type Dispatcher } from "../../helpers/tool-dispatch.ts";

let base: string;
let fx: GitFixture;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "cib-git-states-")));
  fx = await gitFixture(base);
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

function open(dir: string): Promise<Dispatcher> {
  return dispatcher(dir, { toolsets: [gitToolset], runtime: fx.runtime() });
}

/** A repository whose main and side both changed line 2 of a.txt: merging one into the other conflicts. */
async function diverged(name: string): Promise<string> {
  const dir = await fx.repo(join(base, name), { "a.txt": "1\n2\n3\n" });
  fx.git(dir, "switch", "--quiet", "-c", "side");
  await writeFile(join(dir, "a.txt"), "1\nside\n3\n");
  fx.git(dir, "commit", "--quiet", "-am", "side edit");
  fx.git(dir, "switch", "--quiet", "main");
  await writeFile(join(dir, "a.txt"), "1\nmain\n3\n");
  fx.git(dir, "commit", "--quiet", "-am", "main edit");
  return dir;
}

function fails(fn: () => unknown): void {
  expect(fn).toThrow();
}

describe("before the first commit", () => {
  let dir: string;
  let d: Dispatcher;

  beforeAll(async () => {
    dir = join(base, "unborn");
    await mkdir(dir);
    fx.git(dir, "init", "--quiet");
    await writeFile(join(dir, "a.txt"), "a\n");
    d = await open(dir);
  });

  it("status, branches and diffs answer; history tools say there are no commits and how to make one", async () => {
    expect(await d.data("getGitStatus")).toMatchObject({ branch: "main", commit: null, untracked: ["a.txt"], clean: false });
    expect(await d.text("gitListBranches")).toBe("No local branch yet (the repository has no commit).");
    expect(await d.data("gitStashList")).toEqual({ stashes: [] });
    for (const [tool, args] of [
      ["getGitLog", {}],
      ["getCommitDetails", {}],
      ["getGitHotspots", {}],
      ["gitBlame", { path: "a.txt" }],
      ["gitStash", {}],
    ] as const) {
      const failure = await d.failure(tool, args);
      expect(failure, tool).toMatchObject({ code: "no_commits", suggestion: expect.stringMatching(/gitAdd and gitCommit/) });
    }
  });

  it("a new branch can be made before the first commit, and the first commit lands on it", async () => {
    expect(await d.data("gitCheckout", { branch: "start", create: true })).toEqual({
      branch: "start",
      previous: "main",
      commit: null,
      created: true,
    });
    const pushed = await d.failure("gitPush", { remote: "origin" });
    expect(pushed.code, JSON.stringify(pushed)).toBe("invalid_ref");
    expect(await d.data("gitCommit", { message: "first", files: ["a.txt"] })).toMatchObject({ branch: "start", files: ["a.txt"] });
  });

  it("pulling into an empty clone brings the remote's branch", async () => {
    const seed = await fx.repo(join(base, "seed"), { "s.txt": "s\n" });
    const empty = join(base, "empty-clone");
    await mkdir(empty);
    fx.git(empty, "init", "--quiet");
    fx.git(empty, "remote", "add", "origin", seed);
    const pulled = await (await open(empty)).data("gitPull", { remote: "origin", branch: "main" });
    expect(pulled).toMatchObject({ branch: "main", previousHead: null, newCommits: 1 });
  });
});

describe("detached HEAD", () => {
  it("status and branches say so; commit works; pull and push refuse with the way out", async () => {
    const dir = await fx.repo(join(base, "detached"), { "a.txt": "a\n" });
    fx.git(dir, "switch", "--quiet", "--detach", "HEAD");
    const d = await open(dir);
    expect(await d.data("getGitStatus")).toMatchObject({ branch: null, commit: expect.stringMatching(/^[0-9a-f]{10}$/), clean: true });
    expect(await d.text("gitListBranches")).toMatch(/^HEAD is detached: no branch is current\.\nmain [0-9a-f]{10} [^\n]+$/);
    expect((await d.data<Record<string, unknown>>("getGitStatus")).inProgress).toBeUndefined();
    await appendFile(join(dir, "a.txt"), "b\n");
    expect(await d.data("gitCommit", { message: "on a detached HEAD", files: ["a.txt"] })).toMatchObject({ branch: null });
    const pull = await d.failure("gitPull");
    expect(pull.suggestion).toMatch(/detached.*gitCheckout/);
    expect((await d.failure("gitPush")).suggestion).toMatch(/gitCheckout \(create: true\)/);
  });
});

describe("an operation stopped midway", () => {
  it("a merge with conflicts: status names it, branch switches are refused, the resolution commits as a merge", async () => {
    const dir = await diverged("merging");
    fails(() => fx.git(dir, "merge", "side"));
    const d = await open(dir);
    expect(await d.data("getGitStatus")).toMatchObject({
      conflicts: [{ path: "a.txt", conflict: "both modified" }],
      inProgress: { operation: "merge", next: expect.stringMatching(/gitContinueOperation .*commits the merge/) },
    });
    expect((await d.failure("gitCommit", { message: "too early" })).code).toBe("merge_conflict");
    expect((await d.failure("gitCheckout", { branch: "side" })).code).toBe("operation_in_progress");
    expect((await d.failure("gitStash")).code).toBe("merge_conflict");
    await writeFile(join(dir, "a.txt"), "1\nboth\n3\n");
    expect(await d.data("gitCommit", { message: "merge side", files: ["a.txt"] })).toMatchObject({ branch: "main", files: ["a.txt"] });
    expect(fx.git(dir, "rev-list", "--parents", "-1", "HEAD").trim().split(" ")).toHaveLength(3);
    expect((await d.data<Record<string, unknown>>("getGitStatus")).inProgress).toBeUndefined();
  });

  it("a rebase at a conflict: status names it, and gitCommit refuses rather than leave the rebase stopped", async () => {
    const dir = await diverged("rebasing");
    fx.git(dir, "switch", "--quiet", "side");
    fails(() => fx.git(dir, "rebase", "main"));
    const d = await open(dir);
    expect(await d.data("getGitStatus")).toMatchObject({
      branch: null,
      inProgress: { operation: "rebase", next: expect.stringMatching(/gitContinueOperation .*goes on/) },
    });
    await writeFile(join(dir, "a.txt"), "1\nboth\n3\n");
    await d.data("gitAdd", { files: ["a.txt"] });
    const refused = await d.failure("gitCommit", { message: "resolution" });
    expect(refused).toMatchObject({ code: "operation_in_progress", suggestion: expect.stringMatching(/gitContinueOperation/) });
    expect(fx.git(dir, "rev-parse", "HEAD")).toBe(fx.git(dir, "rev-parse", "main"));
  });

  it("a cherry-pick with a conflict, and a bisect", async () => {
    const dir = await diverged("picking");
    fails(() => fx.git(dir, "cherry-pick", "side"));
    const d = await open(dir);
    expect(await d.data("getGitStatus")).toMatchObject({ inProgress: { operation: "cherry-pick" } });
    fx.git(dir, "cherry-pick", "--abort");
    for (const n of [1, 2, 3]) fx.git(dir, "commit", "--quiet", "--allow-empty", "-m", `step ${n}`);
    fx.git(dir, "bisect", "start", "main", "main~4");
    expect(await d.data("getGitStatus")).toMatchObject({
      inProgress: { operation: "bisect", next: expect.stringMatching(/git bisect reset/) },
    });
    fx.git(dir, "bisect", "reset");
  });
});

describe("a linked worktree", () => {
  it("works in its own checkout, and a branch checked out elsewhere is refused with the reason", async () => {
    const dir = await fx.repo(join(base, "main-tree"), { "a.txt": "a\n" });
    fx.git(dir, "branch", "wt-branch");
    const tree = join(base, "linked-tree");
    fx.git(dir, "worktree", "add", "--quiet", tree, "wt-branch");
    const d = await open(tree);
    await appendFile(join(tree, "a.txt"), "from the worktree\n");
    expect(await d.data("getGitStatus")).toMatchObject({ branch: "wt-branch", unstaged: [{ path: "a.txt", change: "modified" }] });
    expect(await d.data("gitCommit", { message: "in the worktree", files: ["a.txt"] })).toMatchObject({ branch: "wt-branch" });
    expect(fx.git(dir, "log", "-1", "--format=%s", "wt-branch").trim()).toBe("in the worktree");
    const refused = await d.failure("gitCheckout", { branch: "main" });
    expect(refused.error).toMatch(/already checked out/);
    expect(refused.suggestion).toMatch(/another worktree/);
  });
});

describe("a submodule", () => {
  it("shows as one entry saying what changed inside; its files are refused with the way to stage them", async () => {
    const sub = await fx.repo(join(base, "lib"), { "s.txt": "s\n" });
    const dir = await fx.repo(join(base, "super"), { "a.txt": "a\n" });
    fx.git(dir, "-c", "protocol.file.allow=always", "submodule", "--quiet", "add", sub, "libs/lib");
    fx.git(dir, "commit", "--quiet", "-m", "add the submodule");
    await appendFile(join(dir, "libs/lib/s.txt"), "dirty\n");
    await writeFile(join(dir, "libs/lib/new.txt"), "n\n");
    const d = await open(dir);
    expect(await d.data("getGitStatus")).toMatchObject({
      unstaged: [{ path: "libs/lib", change: "modified", submodule: "modified content, untracked content" }],
    });
    // The submodule's own status is asked of it through the runner (its own config neutralised); its
    // changes are its repository's, so the diff names it instead of git's "-dirty" line.
    expect(await d.text("getGitDiff")).toContain("Submodule libs/lib: modified content, untracked content");
    const refused = await d.failure("gitAdd", { files: ["libs/lib/s.txt"] });
    expect(refused.suggestion).toMatch(/inside a submodule/);
    fx.git(join(dir, "libs/lib"), "commit", "--quiet", "-am", "inside the submodule");
    expect(await d.data("getGitStatus")).toMatchObject({ unstaged: [{ path: "libs/lib", submodule: "new commits, untracked content" }] });
    expect(await d.data("gitAdd", { files: ["libs/lib"] })).toEqual({ staged: ["libs/lib"], count: 1 });
  });
});

describe("size", () => {
  it("a thousand commits and more: log pages with `more`, hotspots count the whole window", async () => {
    const dir = join(base, "long");
    await mkdir(dir);
    fx.git(dir, "init", "--quiet");
    // fast-import writes 1,200 commits in one process, touching 30 files in turn.
    const lines: string[] = [];
    const start = Math.floor(Date.now() / 1000) - 1200;
    for (let i = 1; i <= 1200; i++) {
      const content = `change ${i}`;
      lines.push(
        "commit refs/heads/main",
        `committer Test Author <author@example.com> ${start + i} +0000`,
        `data ${`c${i}`.length}`,
        `c${i}`,
      );
      lines.push(`M 644 inline f${i % 30}.txt`, `data ${content.length}`, content, "");
    }
    execFileSync("git", ["fast-import", "--quiet"], { cwd: dir, env: fx.env, input: `${lines.join("\n")}\n` });
    fx.git(dir, "reset", "--quiet", "--hard", "main");
    const d = await open(dir);
    const log = await d.data<{ commits: { subject: string }[]; more: boolean }>("getGitLog", { limit: 500 });
    expect(log.commits).toHaveLength(500);
    expect(log.more).toBe(true);
    expect(log.commits[0]?.subject).toBe("c1200");
    const spots = (await d.text("getGitHotspots", { days: 3650, limit: 5 })).split("\n");
    expect(spots[0]).toMatch(/^1200 commits in 3650 days, /);
    expect(spots.slice(1, 6).map((line) => line.split(" ")[0])).toEqual(["40", "40", "40", "40", "40"]);
    // Room for a loaded machine: this builds and reads a real history, it asserts no time.
  });

  it("a commit of thousands of files lists 500 and counts the rest", async () => {
    const dir = await fx.repo(join(base, "wide"), { "a.txt": "a\n" });
    await mkdir(join(dir, "gen"));
    await Promise.all(Array.from({ length: 600 }, (_, i) => writeFile(join(dir, "gen", `f${i}.txt`), `${i}\n`)));
    const d = await open(dir);
    const done = await d.data<{ files: string[]; omitted?: number }>("gitCommit", { message: "generated", files: ["gen"] });
    expect(done.files).toHaveLength(500);
    expect(done.omitted).toBe(100);
    expect(await d.data("gitAdd")).toEqual({ staged: [], count: 0 });
  });
});
