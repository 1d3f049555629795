// The workspace is a package of a monorepo (a subfolder of its git repository), real git: every read
// tool says whether it covers only the workspace or the whole repository, and what changed beside
// it; a commit never takes files staged beside it; continuing or aborting an operation (which spans
// the repository) names the files beside the workspace it reached. At the top level, none of it.
import { execFileSync } from "node:child_process";
import { mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gitToolset } from "../../../src/tools/git/index.ts";
import { searchToolset } from "../../../src/tools/search/index.ts";
import { gitFixture, type GitFixture } from "../../helpers/git-fixture.ts";
import { dispatcher, type Dispatcher } from "../../helpers/tool-dispatch.ts";

const T = 60_000;
const toolsets = [gitToolset, searchToolset];
let base: string;
let fx: GitFixture;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "cib-git-sub-")));
  fx = await gitFixture(base);
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

const open = (root: string): Promise<Dispatcher> => dispatcher(root, { toolsets, runtime: fx.runtime(), settings: { timeoutMs: T } });

/** A monorepo: two packages and a root file, then a commit that touches both packages. */
async function monorepo(name: string): Promise<string> {
  const top = await fx.repo(join(base, name), {
    "README.md": "# mono\n",
    "packages/app/app.txt": "app\n",
    "packages/lib/lib.txt": "lib\n",
  });
  await writeFile(join(top, "packages", "app", "app.txt"), "app 2\n");
  await writeFile(join(top, "packages", "lib", "lib.txt"), "lib 2\n");
  fx.git(top, "commit", "--quiet", "-am", "both packages");
  return top;
}

/** git that may stop with exit 1 (a merge with conflicts). */
function gitMayFail(cwd: string, ...args: string[]): void {
  try {
    execFileSync("git", args, { cwd, env: fx.env, stdio: "ignore" });
  } catch {
    // The stop is the point: the test reads the state it left.
  }
}

describe("read tools in a package of a monorepo", () => {
  let top: string;
  let d: Dispatcher;
  beforeAll(async () => {
    top = await monorepo("read");
    // Beside the workspace: an untracked file at the top, an unstaged edit and a staged edit.
    await writeFile(join(top, "notes.txt"), "todo\n");
    await writeFile(join(top, "packages", "lib", "lib.txt"), "lib edited\n");
    await writeFile(join(top, "README.md"), "# mono, staged\n");
    fx.git(top, "add", "README.md");
    d = await open(join(top, "packages", "app"));
  });

  it("getGitStatus: clean for the workspace, and says the 3 changes beside it, by name", { timeout: T }, async () => {
    const status = await d.data<{ clean: boolean; scope?: string; untracked: string[] }>("getGitStatus");
    expect(status.clean).toBe(true);
    expect(status.untracked).toEqual([]);
    expect(status.scope).toMatch(/^Only the workspace, folder packages\/app\/ of the repository at \.\.\/\.\.: 3 path\(s\) outside it/);
    for (const p of ["README.md", "notes.txt", "packages/lib/lib.txt"]) expect(status.scope).toContain(p);
    await writeFile(join(top, "packages", "app", "app.txt"), "app edited\n");
    const dirty = await d.data<{ clean: boolean; unstaged: { path: string }[]; scope?: string }>("getGitStatus");
    expect(dirty.clean).toBe(false);
    expect(dirty.unstaged.map((c) => c.path)).toEqual(["app.txt"]);
    expect(dirty.scope).toContain("3 path(s) outside it");
    fx.git(top, "checkout", "--", "packages/app/app.txt");
  });

  it("getGitDiff: the workspace's diff, headed by what it leaves out (unstaged and staged apart)", { timeout: T }, async () => {
    const unstaged = await d.text("getGitDiff");
    expect(unstaged).toMatch(
      /^\[Only the workspace, folder packages\/app\/ .*1 path\(s\) outside it with unstaged changes .*packages\/lib\/lib\.txt/,
    );
    expect(unstaged).toContain("No unstaged changes.");
    const staged = await d.text("getGitDiff", { staged: true });
    expect(staged).toMatch(/1 path\(s\) outside it with staged changes are not included \(README\.md,/);
  });

  it("getCommitDetails and getDiffBetweenRefs count the commit's files beside the workspace", { timeout: T }, async () => {
    const shown = await d.text("getCommitDetails");
    expect(shown).toMatch(/^\[Only the workspace.*1 path\(s\) outside it with changes in HEAD .*packages\/lib\/lib\.txt/);
    expect(shown).toContain("app.txt");
    expect(shown).not.toContain("lib 2");
    const between = await d.text("getDiffBetweenRefs", { base: "HEAD~1" });
    expect(between).toMatch(/1 path\(s\) outside it with differences are not included \(packages\/lib\/lib\.txt/);
    expect(between).toContain("+app 2");
  });

  it("getGitLog lists the repository's commits and says so; with paths ['.'] only the workspace's", { timeout: T }, async () => {
    fx.git(top, "commit", "--quiet", "--allow-empty", "-m", "a root-only commit");
    const all = await d.data<{ commits: { subject: string }[]; scope?: string }>("getGitLog");
    expect(all.commits.map((c) => c.subject)).toContain("a root-only commit");
    expect(all.scope).toMatch(/^The whole repository at \.\.\/\.\., not only the workspace \(its folder packages\/app\/\)/);
    const mine = await d.data<{ commits: { subject: string }[]; scope?: string }>("getGitLog", { paths: ["."] });
    expect(mine.commits.map((c) => c.subject)).toEqual(["both packages", "initial commit"]);
    expect(mine.scope).toBeUndefined();
  });

  it("getGitHotspots, getProjectContext and contextBundle say they cover the workspace only", { timeout: T }, async () => {
    const hot = (await d.text("getGitHotspots")).split("\n");
    expect(hot[0]).toMatch(/^\[.*files and commits outside it are not included/);
    expect(hot.slice(2)).toEqual([expect.stringMatching(/^\d+ app\.txt$/)]);
    const project = await d.data<{ recentChanges: { scope?: string; changes: { path: string }[] } }>("getProjectContext");
    expect(project.recentChanges.changes.map((c) => c.path)).toEqual(["app.txt"]);
    expect(project.recentChanges.scope).toContain("Only the workspace, folder packages/app/");
    const bundle = await d.text("contextBundle");
    expect(bundle).toContain("(Only the workspace, folder packages/app/ of the repository at ../..: commits outside it are not included.)");
    expect(bundle).toContain("(only the workspace folder packages/app/ of the repository");
  });

  it("at the repository's top level, no answer carries a scope note", { timeout: T }, async () => {
    const atTop = await open(top);
    expect((await atTop.data<{ scope?: string }>("getGitStatus")).scope).toBeUndefined();
    expect(await atTop.text("getGitDiff")).not.toContain("[Only the workspace");
    expect((await atTop.data<{ scope?: string }>("getGitLog")).scope).toBeUndefined();
    expect(await atTop.text("getGitHotspots")).toMatch(/^\d+ commits in /);
  });
});

describe("write tools in a package of a monorepo", () => {
  it("gitCommit refuses a commit that would take files staged beside the workspace, and commits once they are unstaged", {
    timeout: T,
  }, async () => {
    const top = await monorepo("commit");
    const d = await open(join(top, "packages", "app"));
    await writeFile(join(top, "packages", "lib", "lib.txt"), "staged outside\n");
    fx.git(top, "add", "packages/lib/lib.txt");
    await writeFile(join(top, "packages", "app", "app.txt"), "inside\n");
    const head = fx.git(top, "rev-parse", "HEAD");
    const refused = await d.failure("gitCommit", { message: "app change", files: ["app.txt"] });
    expect(refused.code).toBe("outside_workspace");
    expect(refused.error).toContain("packages/lib/lib.txt");
    expect(refused.suggestion).toContain("git restore --staged");
    expect(fx.git(top, "rev-parse", "HEAD")).toBe(head);
    fx.git(top, "restore", "--staged", "packages/lib/lib.txt");
    const done = await d.data<{ files: string[]; outsideWorkspace?: string[] }>("gitCommit", { message: "app change", files: ["app.txt"] });
    expect(done.files).toEqual(["app.txt"]);
    expect(done.outsideWorkspace).toBeUndefined();
    expect(fx.git(top, "show", "--name-only", "--format=", "HEAD").trim()).toBe("packages/app/app.txt");
    expect(await readFile(join(top, "packages", "lib", "lib.txt"), "utf8")).toBe("staged outside\n");
  });

  it("a merge in conflict beside the workspace: continue says where to resolve it; abort ends it and names the files beside it reset", {
    timeout: T,
  }, async () => {
    const top = await monorepo("merge");
    fx.git(top, "switch", "--quiet", "-c", "theirs", "HEAD~1");
    await writeFile(join(top, "packages", "app", "app.txt"), "app theirs\n");
    await writeFile(join(top, "packages", "lib", "lib.txt"), "lib theirs\n");
    fx.git(top, "commit", "--quiet", "-am", "theirs");
    fx.git(top, "switch", "--quiet", "main");
    gitMayFail(top, "merge", "theirs");
    const d = await open(join(top, "packages", "app"));

    const status = await d.data<{ conflicts: { path: string }[]; inProgress?: { operation: string } }>("getGitStatus");
    expect(status.conflicts.map((c) => c.path)).toEqual(["app.txt"]);
    expect(status.inProgress?.operation).toBe("merge");

    await writeFile(join(top, "packages", "app", "app.txt"), "app resolved\n");
    const blocked = await d.failure("gitContinueOperation", { files: ["app.txt"] });
    expect(blocked.code).toBe("merge_conflict");
    expect(blocked.error).toContain("1 of them outside the workspace");
    expect(blocked.error).toContain("../../packages/lib/lib.txt (both modified)");
    expect(blocked.suggestion).toContain("terminal at the repository's top level (../..)");

    const aborted = await d.data<{ state: string; outsideWorkspace?: string[]; discarded?: { files: string[] } }>("gitAbortOperation");
    expect(aborted.state).toBe("done");
    expect(aborted.outsideWorkspace).toEqual(["packages/lib/lib.txt"]);
    expect(aborted.discarded?.files).toContain("app.txt");
    expect(await readFile(join(top, "packages", "lib", "lib.txt"), "utf8")).toBe("lib 2\n");
    expect(fx.git(top, "status", "--porcelain")).toBe("");
  });

  it("a merge whose conflict is inside: continue concludes it and names the files beside the workspace it brought in", {
    timeout: T,
  }, async () => {
    const top = await monorepo("merge-in");
    fx.git(top, "switch", "--quiet", "-c", "theirs", "HEAD~1");
    await writeFile(join(top, "packages", "app", "app.txt"), "app theirs\n");
    await writeFile(join(top, "README.md"), "# mono theirs\n");
    fx.git(top, "commit", "--quiet", "-am", "theirs");
    fx.git(top, "switch", "--quiet", "main");
    gitMayFail(top, "merge", "theirs");
    const d = await open(join(top, "packages", "app"));
    await writeFile(join(top, "packages", "app", "app.txt"), "app resolved\n");
    const done = await d.data<{ state: string; outsideWorkspace?: string[] }>("gitContinueOperation", { files: ["app.txt"] });
    expect(done.state).toBe("done");
    expect(done.outsideWorkspace).toEqual(["README.md"]);
    expect(fx.git(top, "log", "--format=%s", "-1").trim()).toMatch(/^Merge branch 'theirs'/);
  });

  it("a rebase stopped on a conflict inside: abort from the package restores the branch and names what it reset beside it", {
    timeout: T,
  }, async () => {
    const top = await monorepo("rebase");
    fx.git(top, "switch", "--quiet", "-c", "topic", "HEAD~1");
    await writeFile(join(top, "packages", "lib", "lib.txt"), "lib topic\n");
    fx.git(top, "commit", "--quiet", "-am", "topic lib");
    await writeFile(join(top, "packages", "app", "app.txt"), "app topic\n");
    fx.git(top, "commit", "--quiet", "-am", "topic app");
    const before = fx.git(top, "rev-parse", "HEAD");
    // lib.txt conflicts first, beside the workspace; the rebase stops there.
    gitMayFail(top, "rebase", "main");
    const d = await open(join(top, "packages", "app"));
    const aborted = await d.data<{ state: string; branch: string | null; outsideWorkspace?: string[] }>("gitAbortOperation");
    expect(aborted).toMatchObject({ state: "done", branch: "topic" });
    expect(aborted.outsideWorkspace).toEqual(["packages/lib/lib.txt"]);
    expect(fx.git(top, "rev-parse", "HEAD")).toBe(before);
    expect(await readFile(join(top, "packages", "lib", "lib.txt"), "utf8")).toBe("lib topic\n");
  });
});
