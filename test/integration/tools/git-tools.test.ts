// The git toolset's local tools through the real dispatcher, on real temporary repositories:
// reads (status, diffs, log, blame, history, hotspots, branches, stashes) and writes (add, commit,
// checkout, stash), each write's event on the bus, and git's refusals as errors with a next step.
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile, appendFile, unlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BridgeEvents } from "../../../src/capabilities/events/bridge-events.ts";
import { gitToolset } from "../../../src/tools/git/index.ts";
import { branchNames } from "../../../src/prompts/tool-lines.ts";
import { gitFixture, type GitFixture } from "../../helpers/git-fixture.ts";
import { dispatcher, type Dispatcher } from "../../helpers/tool-dispatch.ts";

let base: string;
let fx: GitFixture;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "cib-git-")));
  fx = await gitFixture(base);
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

async function open(dir: string): Promise<Dispatcher> {
  return dispatcher(dir, { toolsets: [gitToolset], runtime: fx.runtime() });
}

function recorder<K extends keyof BridgeEvents>(d: Dispatcher, name: K): BridgeEvents[K][] {
  const seen: BridgeEvents[K][] = [];
  d.fixture.events.subscribe(name, (e) => seen.push(e));
  return seen;
}

describe("reads", () => {
  let root: string;
  let d: Dispatcher;

  beforeAll(async () => {
    root = await fx.repo(join(base, "reads"), {
      "src/app.ts": "function start() {\n  return 1;\n}\n\nfunction stop() {\n  return 0;\n}\n",
      "notes.txt": "one\ntwo\n",
      "old name.txt": "x\n",
    });
    fx.git(root, "config", "user.name", "Second Author");
    await writeFile(join(root, "src/app.ts"), "function start() {\n  return 2;\n}\n\nfunction stop() {\n  return 0;\n}\n");
    fx.git(root, "commit", "--quiet", "-am", "start returns 2");
    fx.git(root, "tag", "v1");
    await appendFile(join(root, "notes.txt"), "three\n");
    fx.git(root, "commit", "--quiet", "-am", "notes: three");
    // The working state: one staged rename, one unstaged edit, one untracked file with a space.
    fx.git(root, "mv", "old name.txt", "new name.txt");
    await appendFile(join(root, "notes.txt"), "four\n");
    await writeFile(join(root, "fresh file.md"), "new\n");
    d = await open(root);
  });

  it("getGitStatus: branch, staged rename, unstaged edit, untracked file", async () => {
    const status = await d.data("getGitStatus");
    expect(status).toMatchObject({
      branch: "main",
      upstream: null,
      ahead: 0,
      behind: 0,
      staged: [{ path: "new name.txt", change: "renamed", from: "old name.txt" }],
      unstaged: [{ path: "notes.txt", change: "modified" }],
      untracked: ["fresh file.md"],
      conflicts: [],
      clean: false,
    });
    expect(status.commit).toMatch(/^[0-9a-f]{10}$/);
    expect(await d.data("getGitStatus", { path: "src" })).toMatchObject({ staged: [], unstaged: [], untracked: [], clean: true });
  });

  it("getGitDiff: unstaged, staged, for a path, as a stat, and saying when empty", async () => {
    const unstaged = await d.text("getGitDiff");
    expect(unstaged).toContain("diff --git a/notes.txt b/notes.txt");
    expect(unstaged).toContain("+four");
    expect(unstaged).not.toContain("new name.txt");
    expect(await d.text("getGitDiff", { staged: true })).toContain("rename to new name.txt");
    expect(await d.text("getGitDiff", { stat: true })).toMatch(/notes\.txt \| 1 \+/);
    expect(await d.text("getGitDiff", { paths: ["src"] })).toMatch(/^No unstaged changes in those paths\./);
  });

  it("getGitDiff: cuts a large diff with a note instead of overflowing the result", async () => {
    const dir = await fx.repo(join(base, "big"), { "big.txt": "a\n" });
    await writeFile(
      join(dir, "big.txt"),
      "b".repeat(80) + "\n".repeat(1) + Array.from({ length: 5000 }, (_, i) => `line ${i} ${"x".repeat(40)}`).join("\n"),
    );
    const big = await open(dir);
    const text = await big.text("getGitDiff", { maxChars: 5000 });
    expect(text.length).toBeLessThan(5400);
    expect(text).toMatch(/\[output cut at \d+ characters; pass paths, or stat: true for a summary\]$/);
  });

  it("getGitLog: newest first, with limit, range, path, author and message filters", async () => {
    const all = await d.data<{ commits: { hash: string; author: string; subject: string }[]; more: boolean }>("getGitLog");
    expect(all.commits.map((c) => c.subject)).toEqual(["notes: three", "start returns 2", "initial commit"]);
    expect(all.more).toBe(false);
    expect(all.commits[0]).toMatchObject({
      author: "Second Author",
      hash: expect.stringMatching(/^[0-9a-f]{10}$/),
      date: expect.stringMatching(/^\d{4}-\d\d-\d\d$/),
    });
    const one = await d.data<{ commits: unknown[]; more: boolean }>("getGitLog", { limit: 1 });
    expect(one).toMatchObject({ commits: [{ subject: "notes: three" }], more: true });
    expect((await d.data<{ commits: { subject: string }[] }>("getGitLog", { range: "v1..HEAD" })).commits.map((c) => c.subject)).toEqual([
      "notes: three",
    ]);
    expect(
      (await d.data<{ commits: { subject: string }[] }>("getGitLog", { paths: ["src/app.ts"] })).commits.map((c) => c.subject),
    ).toEqual(["start returns 2", "initial commit"]);
    expect(
      (await d.data<{ commits: { subject: string }[] }>("getGitLog", { author: "Test Author" })).commits.map((c) => c.subject),
    ).toEqual(["initial commit"]);
    expect((await d.data<{ commits: { subject: string }[] }>("getGitLog", { grep: "NOTES" })).commits.map((c) => c.subject)).toEqual([
      "notes: three",
    ]);
    // A filter is text: "." matches a dot, not any character.
    expect((await d.data<{ commits: unknown[] }>("getGitLog", { grep: "notes." })).commits).toEqual([]);
  });

  it("getCommitDetails and getDiffBetweenRefs", async () => {
    const show = await d.text("getCommitDetails", { ref: "v1" });
    expect(show).toMatch(/^commit [0-9a-f]{40}/);
    expect(show).toContain("start returns 2");
    expect(show).toContain("-  return 1;");
    const header = await d.text("getCommitDetails", { ref: "v1", patch: false });
    expect(header).not.toContain("-  return 1;");
    // Author and date only, and numstat counts with whole paths; the committer on request.
    expect(header).toMatch(/\nAuthor: [^\n]+\nDate: +\d{4}-\d\d-\d\d [^\n]+\n/);
    expect(header).not.toContain("Commit:");
    expect(header).toMatch(/\n\d+\t\d+\tsrc\/app\.ts\n 1 file changed/);
    expect(await d.text("getCommitDetails", { ref: "v1", patch: false, committer: true })).toMatch(/\nCommitDate: /);
    const budgeted = await d.text("getCommitDetails", { ref: "v1", maxDiffLines: 2 });
    expect(budgeted).toContain("start returns 2");
    expect(budgeted).not.toContain("-  return 1;");
    expect(budgeted).toMatch(
      /\n@@ [^\n]+\n function start\(\) \{\n\[\d+ more patch lines of src\/app\.ts; maxDiffLines \(now 2\) shows more\]/,
    );
    const between = await d.text("getDiffBetweenRefs", { base: "v1", head: "HEAD" });
    expect(between).toContain("+three");
    expect(between).not.toContain("return");
    const stat = await d.text("getDiffBetweenRefs", { base: "v1", stat: true });
    expect(stat).toMatch(/^1\t0\tnotes\.txt\n 1 file changed, 1 insertion\(\+\)\n$/);
    expect(await d.text("getCommitDetails", { ref: "v1~1", patch: false, summary: true })).toMatch(/\n create mode 100644 notes\.txt\n/);
    expect(await d.text("getDiffBetweenRefs", { base: "HEAD", head: "HEAD" })).toBe("No differences between HEAD and HEAD.");
    const missing = await d.failure("getDiffBetweenRefs", { base: "no-such-branch" });
    expect(missing.code).toBe("invalid_ref");
    expect(missing.error).toContain("no-such-branch");
  });

  it("gitBlame: per line, for a range, as of a commit", async () => {
    const blame = await d.text("gitBlame", { path: "src/app.ts", startLine: 2, endLine: 2 });
    expect(blame.trim().split("\n")).toHaveLength(1);
    expect(blame).toMatch(/Second Author \d{4}-\d\d-\d\d 2\)\s+return 2;/);
    expect(await d.text("gitBlame", { path: "src/app.ts", ref: "v1~1", startLine: 2, endLine: 2 })).toContain("return 1;");
    expect((await d.failure("gitBlame", { path: "src/app.ts", startLine: 3, endLine: 2 })).code).toBe("invalid_arguments");
    expect((await d.failure("gitBlame", { path: "fresh file.md" })).code).toBe("file_not_found");
  });

  it("getSymbolHistory: a function's commits with just its diff, a line range, and the text fallback", async () => {
    const history = await d.text("getSymbolHistory", { path: "src/app.ts", symbol: "start" });
    expect(history).toMatch(/^commit [0-9a-f]{10} \d{4}-\d\d-\d\d Second Author\nstart returns 2/);
    expect(history).toContain("+  return 2;");
    expect(history).not.toContain("stop");
    expect(await d.text("getSymbolHistory", { path: "src/app.ts", startLine: 6, endLine: 6 })).toContain("initial commit");
    // A diff budget per commit, which says what it left out and how to see it.
    const cut = await d.text("getSymbolHistory", { path: "src/app.ts", symbol: "start", maxDiffLines: 2 });
    const hashes = [...cut.matchAll(/^commit ([0-9a-f]{10}) /gm)].map((m) => m[1]);
    expect(hashes).toHaveLength(2);
    expect(cut).not.toContain("+  return 2;");
    expect(cut).toContain(
      `[4 more diff lines; maxDiffLines (now 2) shows more, getCommitDetails with ref ${hashes[0]} the whole commit]\n\ncommit ${hashes[1]}`,
    );
    expect(cut.trimEnd()).toMatch(
      new RegExp(`\\[3 more diff lines; maxDiffLines \\(now 2\\) shows more, getCommitDetails with ref ${hashes[1]} the whole commit\\]$`),
    );
    // Not in the file any more (or never a definition git can find): the commits that had the text.
    await writeFile(join(root, "gone.txt"), "legacy()\n");
    fx.git(root, "add", "gone.txt");
    fx.git(root, "commit", "--quiet", "-m", "add legacy");
    await writeFile(join(root, "gone.txt"), "\n");
    fx.git(root, "commit", "--quiet", "-am", "drop legacy");
    const fallback = await d.text("getSymbolHistory", { path: "gone.txt", symbol: "legacy" });
    expect(fallback).toContain('git found no function named "legacy"');
    expect(fallback).toMatch(/drop legacy[\s\S]*add legacy/);
    fx.git(root, "reset", "--quiet", "--soft", "HEAD~2");
    fx.git(root, "rm", "--quiet", "--cached", "gone.txt");
    expect((await d.failure("getSymbolHistory", { path: "src/app.ts" })).code).toBe("invalid_arguments");
  });

  it("getGitHotspots: files by commits in the window", async () => {
    const spots = await d.text("getGitHotspots", { days: 30 });
    // Ties on commits go to the file with more changed lines.
    expect(spots).toMatch(/^3 commits in 30 days, no merges; commits per file:\n2 src\/app\.ts\n2 notes\.txt\n/);
    expect(await d.text("getGitHotspots", { days: 30, lines: true })).toContain("\n2 +8 -1 src/app.ts\n2 +3 -0 notes.txt\n");
    expect(await d.text("getGitHotspots", { limit: 1 })).toMatch(/^[^\n]+\n2 src\/app\.ts\n\[\d+ more files: raise limit\]$/);
  });

  it("gitListBranches and gitStashList", async () => {
    fx.git(root, "branch", "topic");
    const branches = await d.text("gitListBranches");
    expect(branches).toMatch(/^\* main [0-9a-f]{10} /m);
    expect(branches).toMatch(/^topic [0-9a-f]{10} /m);
    expect(branchNames(branches).sort()).toEqual(["main", "topic"]);
    expect(await d.text("gitListBranches", { dates: true })).toMatch(/^\* main [0-9a-f]{10} \d{4}-\d\d-\d\d /m);
    expect(await d.data("gitStashList")).toEqual({ stashes: [] });
  });
});

describe("writes", () => {
  it("gitAdd: tracked changes by default, new files with addUntracked, chosen files, deleted ones", async () => {
    const root = await fx.repo(join(base, "add"), { "a.txt": "a\n", "b.txt": "b\n" });
    const d = await open(root);
    const events = recorder(d, "git.add");
    await appendFile(join(root, "a.txt"), "more\n");
    await writeFile(join(root, "new.txt"), "n\n");
    expect(await d.data("gitAdd")).toEqual({ staged: ["a.txt"], count: 1 });
    expect(await d.data("gitAdd", { addUntracked: true })).toEqual({ staged: ["a.txt", "new.txt"], count: 2 });
    await unlink(join(root, "b.txt"));
    expect(await d.data("gitAdd", { files: ["b.txt"] })).toEqual({ staged: ["a.txt", "b.txt", "new.txt"], count: 3 });
    expect(events).toEqual([{ staged: 1 }, { staged: 2 }, { staged: 3 }]);
    expect((await d.failure("gitAdd", { files: ["../outside.txt"] })).code).toBe("outside_workspace");
  });

  it("gitAdd stages a symlink itself, not its target", async () => {
    const root = await fx.repo(join(base, "links"), { "target.txt": "t\n" });
    await symlink("target.txt", join(root, "link"));
    const d = await open(root);
    expect(await d.data("gitAdd", { files: ["link"] })).toEqual({ staged: ["link"], count: 1 });
  });

  it("gitCommit: commits staged work, stages files first, refuses an empty commit, keeps the message verbatim", async () => {
    const root = await fx.repo(join(base, "commit"), { "a.txt": "a\n" });
    const d = await open(root);
    const events = recorder(d, "git.commit");
    const empty = await d.failure("gitCommit", { message: "nothing here" });
    expect(empty).toMatchObject({ code: "nothing_to_commit", suggestion: expect.stringMatching(/clean/) });
    await appendFile(join(root, "a.txt"), "b\n");
    expect((await d.failure("gitCommit", { message: "still nothing" })).suggestion).toMatch(/1 changed .* gitAdd/);
    const message = "-m --amend subject\n\n#123 is kept, and so is\n--no-verify text";
    const done = await d.data<{ hash: string; branch: string; subject: string; files: string[] }>("gitCommit", {
      message,
      files: ["a.txt"],
    });
    expect(done).toMatchObject({ branch: "main", subject: "-m --amend subject", files: ["a.txt"] });
    expect(fx.git(root, "log", "-1", "--format=%B")).toBe(`${message}\n\n`);
    expect(fx.git(root, "rev-list", "--count", "HEAD").trim()).toBe("2");
    expect(events).toEqual([{ hash: done.hash, branch: "main", subject: "-m --amend subject", files: 1 }]);
    expect((await d.failure("gitCommit", { message: "   \n " })).code).toBe("invalid_arguments");
  });

  it("gitCommit runs no repository hook unless the bridge allows them, and names those it skipped", async () => {
    const root = await fx.repo(join(base, "hooked"), { "a.txt": "a\n" });
    await writeFile(join(root, ".git/hooks/pre-commit"), "#!/bin/sh\necho 'lint failed: a.txt' >&2\nexit 1\n", { mode: 0o755 });
    // Not executable: git would not run it either, so it is not named.
    await writeFile(join(root, ".git/hooks/commit-msg"), "#!/bin/sh\nexit 1\n", { mode: 0o644 });
    await appendFile(join(root, "a.txt"), "b\n");
    const committed = await (await open(root)).data("gitCommit", { message: "x", files: ["a.txt"] });
    expect(committed).toMatchObject({ subject: "x", hooksNotRun: ["pre-commit"] });
    // With --allow-git-hooks the hook runs, and its refusal comes back with its words.
    await appendFile(join(root, "a.txt"), "c\n");
    const allowed = await dispatcher(root, { toolsets: [gitToolset], runtime: fx.runtime(), settings: { allowGitHooks: true } });
    const refused = await allowed.failure("gitCommit", { message: "y", files: ["a.txt"] });
    expect(refused).toMatchObject({ code: "git_failed", error: expect.stringContaining("lint failed: a.txt") });
  });

  it("gitCheckout: creates from a base, switches back, refuses to lose local changes", async () => {
    const root = await fx.repo(join(base, "checkout"), { "a.txt": "a\n" });
    const d = await open(root);
    const events = recorder(d, "git.checkout");
    const created = await d.data("gitCheckout", { branch: "feature/x", create: true, base: "main" });
    expect(created).toMatchObject({ branch: "feature/x", previous: "main", created: true });
    await writeFile(join(root, "a.txt"), "changed on feature\n");
    fx.git(root, "commit", "--quiet", "-am", "feature change");
    await writeFile(join(root, "a.txt"), "uncommitted\n");
    const refused = await d.failure("gitCheckout", { branch: "main" });
    expect(refused.error).toMatch(/would be overwritten/);
    expect(refused.suggestion).toMatch(/gitStash/);
    fx.git(root, "checkout", "--quiet", "--", "a.txt");
    expect(await d.data("gitCheckout", { branch: "main" })).toMatchObject({ branch: "main", previous: "feature/x", created: false });
    expect((await d.failure("gitCheckout", { branch: "feature/x", create: true })).error).toMatch(/already exists/);
    expect((await d.failure("gitCheckout", { branch: "nope" })).code).toBe("invalid_ref");
    expect(events.map((e) => e.branch)).toEqual(["feature/x", "main"]);
  });

  it("gitStash, gitStashList and gitStashPop", async () => {
    const root = await fx.repo(join(base, "stash"), { "a.txt": "a\n" });
    const d = await open(root);
    const events = recorder(d, "git.stash");
    expect((await d.failure("gitStash")).code).toBe("nothing_to_stash");
    await appendFile(join(root, "a.txt"), "wip\n");
    await writeFile(join(root, "u.txt"), "untracked\n");
    expect(await d.data("gitStash", { message: "half done", includeUntracked: true })).toEqual({
      ref: "stash@{0}",
      message: "On main: half done",
    });
    expect(await d.data("getGitStatus")).toMatchObject({ clean: true });
    expect(await d.data("gitStashList")).toEqual({ stashes: [{ index: 0, message: "On main: half done", date: expect.any(String) }] });
    expect(await d.data("gitStashPop")).toEqual({ ref: "stash@{0}", message: "On main: half done" });
    expect(await d.data("getGitStatus")).toMatchObject({ unstaged: [{ path: "a.txt" }], untracked: ["u.txt"] });
    expect((await d.failure("gitStashPop", { index: 3 })).code).toBe("invalid_ref");
    expect(events).toEqual([
      { action: "push", ref: "stash@{0}" },
      { action: "pop", ref: "stash@{0}" },
    ]);
  });
});

describe("where the repository is", () => {
  it("says plainly when the workspace is not in a repository", async () => {
    const dir = join(base, "plain");
    await mkdir(dir);
    // A ceiling keeps git from finding a repository above the temporary directory.
    const d = await dispatcher(dir, { toolsets: [gitToolset], runtime: fx.runtime({ GIT_CEILING_DIRECTORIES: base }) });
    const failure = await d.failure("getGitStatus");
    expect(failure.code).toBe("not_a_repository");
    expect(failure.suggestion).toMatch(/git init/);
  });

  it("works in a workspace below the repository's top level, with workspace-relative paths", async () => {
    const top = await fx.repo(join(base, "mono"), { "packages/app/index.ts": "1\n", "packages/lib/x.ts": "1\n" });
    await appendFile(join(top, "packages/app/index.ts"), "2\n");
    await appendFile(join(top, "packages/lib/x.ts"), "2\n");
    const d = await open(join(top, "packages/app"));
    expect(await d.data("getGitStatus")).toMatchObject({ unstaged: [{ path: "index.ts", change: "modified" }] });
    expect(await d.text("getGitDiff")).toContain("diff --git a/index.ts b/index.ts");
    expect(await d.data("gitAdd")).toEqual({ staged: ["index.ts"], count: 1 });
    expect(fx.git(top, "diff", "--cached", "--name-only")).toBe("packages/app/index.ts\n");
  });
});
