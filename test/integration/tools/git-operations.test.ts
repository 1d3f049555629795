// gitContinueOperation and gitAbortOperation on real temporary repositories stopped midway: a
// rebase (refused while conflicted, continued after resolving, stopping again on the next commit,
// aborted, skipped), a merge, a cherry-pick and a revert, in a linked worktree too; and with
// nothing in progress. The user's editor is `false` throughout, so any editor git opened would
// fail the step.
import { execFileSync } from "node:child_process";
import { appendFile, cp, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gitToolset } from "../../../src/tools/git/index.ts";
import { gitFixture, type GitFixture } from "../../helpers/git-fixture.ts";
import { dispatcher, type Dispatcher } from "../../helpers/tool-dispatch.ts";

let base: string;
let fx: GitFixture;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "cib-git-ops-")));
  fx = await gitFixture(base);
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

interface Outcome {
  operation: string;
  state: "done" | "stopped";
  branch: string | null;
  head: string | null;
  stoppedAt?: { hash: string; subject: string };
  progress?: string;
  conflicts?: { path: string; conflict: string }[];
  next?: string;
  discarded?: { commit?: { hash: string; subject: string }; commits?: number; files: string[] };
}

function open(dir: string): Promise<Dispatcher> {
  return dispatcher(dir, { toolsets: [gitToolset], runtime: fx.runtime({ GIT_EDITOR: "false", EDITOR: "false", VISUAL: "false" }) });
}

let divergedTemplate: string | undefined;

/**
 * side: s1 and s2 each rewrite line 2 of a.txt, s3 adds b.txt; main rewrote line 2 too. Rebasing
 * side onto main stops on s1, then on s2; s3 applies cleanly. Built once and copied for each case:
 * a copied repository is the same repository (objects, refs, index, config), for one file copy
 * instead of ten git runs (process starts are most of this file's CPU).
 */
async function diverged(name: string): Promise<string> {
  divergedTemplate ??= await buildDiverged("diverged-template");
  const dir = join(base, name);
  await cp(divergedTemplate, dir, { recursive: true, preserveTimestamps: true });
  return dir;
}

async function buildDiverged(name: string): Promise<string> {
  const dir = await fx.repo(join(base, name), { "a.txt": "1\n2\n3\n", "c.txt": "c\n" });
  fx.git(dir, "config", "core.editor", "false");
  fx.git(dir, "switch", "--quiet", "-c", "side");
  for (const [subject, line] of [
    ["s1", "S1"],
    ["s2", "S2"],
  ] as const) {
    await writeFile(join(dir, "a.txt"), `1\n${line}\n3\n`);
    fx.git(dir, "commit", "--quiet", "-am", subject);
  }
  await writeFile(join(dir, "b.txt"), "b\n");
  fx.git(dir, "add", "b.txt");
  fx.git(dir, "commit", "--quiet", "-m", "s3");
  fx.git(dir, "switch", "--quiet", "main");
  await writeFile(join(dir, "a.txt"), "1\nM\n3\n");
  fx.git(dir, "commit", "--quiet", "-am", "m");
  return dir;
}

function stops(dir: string, ...args: string[]): void {
  expect(() => fx.git(dir, ...args)).toThrow();
}

const rev = (dir: string, ref: string) => fx.git(dir, "rev-parse", "--short=10", ref).trim();
const subjects = (dir: string, ref: string) => fx.git(dir, "log", "--format=%s", ref).trim().split("\n");

describe("a rebase stopped on a conflict", () => {
  let dir: string;
  let d: Dispatcher;
  let original: string;

  beforeAll(async () => {
    dir = await diverged("rebase");
    fx.git(dir, "switch", "--quiet", "side");
    original = rev(dir, "side");
    stops(dir, "rebase", "main");
    d = await open(dir);
  });

  it("getGitStatus says a rebase is stopped, on which conflicts, and which tool goes on", async () => {
    expect(await d.data("getGitStatus")).toMatchObject({
      branch: null,
      conflicts: [{ path: "a.txt", conflict: "both modified" }],
      inProgress: { operation: "rebase", next: expect.stringMatching(/gitContinueOperation.*gitAbortOperation/) },
    });
  });

  it("continue is refused while a file is in conflict, naming it and the files to pass", async () => {
    const head = rev(dir, "HEAD");
    const refused = await d.failure("gitContinueOperation");
    expect(refused).toMatchObject({
      code: "merge_conflict",
      error: expect.stringContaining("a.txt (both modified)"),
      suggestion: expect.stringContaining('files: ["a.txt"]'),
    });
    expect(rev(dir, "HEAD")).toBe(head);
  });

  it("a file staged with git's conflict markers still in it is refused, with the lines", async () => {
    const refused = await d.failure("gitContinueOperation", { files: ["a.txt"] });
    expect(refused).toMatchObject({
      code: "merge_conflict",
      error: expect.stringMatching(/conflict markers.*: a\.txt \(lines 2, 4, 6\)$/),
      suggestion: expect.stringMatching(/keepMarkers/),
    });
    expect((await d.data<{ staged: { path: string }[] }>("getGitStatus")).staged).toEqual([{ path: "a.txt", change: "modified" }]);
  });

  it("after resolving, continue applies the commit and stops again on the next one, with its conflicts", async () => {
    await writeFile(join(dir, "a.txt"), "1\nM+S1\n3\n");
    const step = await d.data<Outcome>("gitContinueOperation", { files: ["a.txt"] });
    expect(step).toEqual({
      operation: "rebase",
      state: "stopped",
      branch: null,
      head: expect.stringMatching(/^[0-9a-f]{10}$/),
      stoppedAt: { hash: rev(dir, "REBASE_HEAD"), subject: "s2" },
      progress: "2/3",
      conflicts: [{ path: "a.txt", conflict: "both modified" }],
      next: expect.stringMatching(/gitContinueOperation/),
    });
    expect(fx.git(dir, "log", "-1", "--format=%s", "HEAD").trim()).toBe("s1");
  });

  it("the last resolution finishes the rebase, back on the branch, messages as they were", async () => {
    await writeFile(join(dir, "a.txt"), "1\nM+S2\n3\n");
    await d.data("gitAdd", { files: ["a.txt"] });
    const done = await d.data<Outcome>("gitContinueOperation");
    expect(done).toEqual({ operation: "rebase", state: "done", branch: "side", head: rev(dir, "side") });
    expect(subjects(dir, "side")).toEqual(["s3", "s2", "s1", "m", "initial commit"]);
    expect(rev(dir, "side")).not.toBe(original);
    expect(await readFile(join(dir, "a.txt"), "utf8")).toBe("1\nM+S2\n3\n");
    expect((await d.data<Record<string, unknown>>("getGitStatus")).inProgress).toBeUndefined();
    expect((await d.failure("gitContinueOperation")).code).toBe("nothing_in_progress");
  });
});

describe("giving a rebase up", () => {
  it("abort restores the branch to its original commit and says what it dropped", async () => {
    const dir = await diverged("rebase-abort");
    fx.git(dir, "switch", "--quiet", "side");
    const original = rev(dir, "side");
    stops(dir, "rebase", "main");
    const d = await open(dir);
    await writeFile(join(dir, "a.txt"), "1\nM+S1\n3\n");
    expect(await d.data("gitContinueOperation", { files: ["a.txt"] })).toMatchObject({ state: "stopped", stoppedAt: { subject: "s2" } });
    await writeFile(join(dir, "a.txt"), "half resolved\n");
    const aborted = await d.data<Outcome>("gitAbortOperation");
    expect(aborted).toEqual({
      operation: "rebase",
      state: "done",
      branch: "side",
      head: original,
      discarded: { commits: 1, files: ["a.txt"] },
    });
    expect(rev(dir, "HEAD")).toBe(original);
    expect(subjects(dir, "HEAD")).toEqual(["s3", "s2", "s1", "initial commit"]);
    expect(await d.data("getGitStatus")).toMatchObject({ branch: "side", clean: true });
  });

  it("skip drops the stopped commit: it stops on the next conflicting one, and a second skip finishes", async () => {
    const dir = await diverged("rebase-skip");
    fx.git(dir, "switch", "--quiet", "side");
    const s1 = rev(dir, "side~2");
    stops(dir, "rebase", "main");
    const d = await open(dir);
    const first = await d.data<Outcome>("gitAbortOperation", { skip: true });
    expect(first).toMatchObject({
      state: "stopped",
      stoppedAt: { subject: "s2" },
      conflicts: [{ path: "a.txt" }],
      discarded: { commit: { hash: s1, subject: "s1" }, files: ["a.txt"] },
    });
    const second = await d.data<Outcome>("gitAbortOperation", { skip: true });
    expect(second).toMatchObject({ state: "done", branch: "side", discarded: { commit: { subject: "s2" }, files: ["a.txt"] } });
    expect(subjects(dir, "side")).toEqual(["s3", "m", "initial commit"]);
  });
});

describe("an interactive rebase the user started", () => {
  it("stopped at an edit step: exec steps are refused unless allowed; then continue stops at the next edit, and a failing exec step is git's error", async () => {
    const dir = await diverged("rebase-edit");
    fx.git(dir, "switch", "--quiet", "side");
    // The user's own `git rebase -i`, its todo edited to: edit s2, exec false, edit s3.
    const todo = "sed -i -e 's/^pick/edit/' -e '1a exec false'";
    execFileSync("git", ["rebase", "-i", "HEAD~2"], { cwd: dir, env: { ...fx.env, GIT_SEQUENCE_EDITOR: todo }, stdio: "ignore" });
    // An exec step is a command in the git directory, like a hook: refused unless the bridge allows them.
    const guarded = await open(dir);
    expect(await guarded.data("getGitStatus")).toMatchObject({ inProgress: { operation: "rebase" }, conflicts: [] });
    expect(await guarded.failure("gitContinueOperation")).toMatchObject({
      code: "command_refused",
      error: expect.stringContaining("exec false"),
      suggestion: expect.stringContaining("--allow-git-hooks"),
    });
    expect((await guarded.failure("gitAbortOperation", { skip: true })).code).toBe("command_refused");
    const d = await dispatcher(dir, { toolsets: [gitToolset], runtime: fx.runtime(), settings: { allowGitHooks: true } });
    const failed = await d.failure("gitContinueOperation");
    expect(failed).toMatchObject({
      error: expect.stringMatching(/^git rebase failed \(exit 1\): Rebasing \(2\/3\)\nExecuting: false\nwarning: execution failed: false/),
      suggestion: expect.stringMatching(/still in progress.*gitAbortOperation/),
    });
    const stopped = await d.data<Outcome>("gitContinueOperation");
    expect(stopped).toMatchObject({
      operation: "rebase",
      state: "stopped",
      stoppedAt: { subject: "s3" },
      next: expect.stringMatching(/edit or break/),
    });
    expect(stopped.conflicts).toBeUndefined();
    expect(await d.data("gitContinueOperation")).toMatchObject({ state: "done", branch: "side" });
    expect(subjects(dir, "side")).toEqual(["s3", "s2", "s1", "initial commit"]);
  });
});

describe("a merge stopped on a conflict", () => {
  it("continue commits the merge with git's message, no editor opened", async () => {
    const dir = await diverged("merge");
    stops(dir, "merge", "side");
    const d = await open(dir);
    expect((await d.failure("gitContinueOperation")).error).toContain("a.txt (both modified)");
    await writeFile(join(dir, "a.txt"), "1\nboth\n3\n");
    const done = await d.data<Outcome>("gitContinueOperation", { files: ["a.txt"] });
    expect(done).toEqual({ operation: "merge", state: "done", branch: "main", head: rev(dir, "main") });
    expect(fx.git(dir, "rev-list", "--parents", "-1", "HEAD").trim().split(" ")).toHaveLength(3);
    expect(fx.git(dir, "log", "-1", "--format=%s").trim()).toBe("Merge branch 'side'");
  });

  it("abort goes back to before the merge, keeping a local edit the merge did not touch", async () => {
    const dir = await diverged("merge-abort");
    const before = rev(dir, "HEAD");
    await appendFile(join(dir, "c.txt"), "local edit\n");
    stops(dir, "merge", "side");
    const d = await open(dir);
    const aborted = await d.data<Outcome>("gitAbortOperation");
    expect(aborted).toEqual({ operation: "merge", state: "done", branch: "main", head: before, discarded: { files: ["a.txt", "b.txt"] } });
    expect(await readFile(join(dir, "c.txt"), "utf8")).toBe("c\nlocal edit\n");
    expect(await d.data("getGitStatus")).toMatchObject({ unstaged: [{ path: "c.txt" }], untracked: [], conflicts: [] });
  });

  it("a merge has no commit to skip", async () => {
    const dir = await diverged("merge-skip");
    stops(dir, "merge", "side");
    const refused = await (await open(dir)).failure("gitAbortOperation", { skip: true });
    expect(refused).toMatchObject({ code: "invalid_arguments", suggestion: expect.stringMatching(/without skip/) });
  });
});

describe("a cherry-pick and a revert stopped on a conflict", () => {
  it("a cherry-pick: refused while conflicted, then committed with the picked commit's message", async () => {
    const dir = await diverged("pick");
    stops(dir, "cherry-pick", "side~2");
    const d = await open(dir);
    expect(await d.data("getGitStatus")).toMatchObject({ inProgress: { operation: "cherry-pick" } });
    expect((await d.failure("gitContinueOperation")).code).toBe("merge_conflict");
    await writeFile(join(dir, "a.txt"), "1\nM+S1\n3\n");
    expect(await d.data("gitContinueOperation", { files: ["a.txt"] })).toEqual({
      operation: "cherry-pick",
      state: "done",
      branch: "main",
      head: rev(dir, "HEAD"),
    });
    expect(subjects(dir, "HEAD")).toEqual(["s1", "m", "initial commit"]);
  });

  it("a cherry-pick of several commits stops on each conflict; abort drops what it picked", async () => {
    const dir = await diverged("pick-range");
    const before = rev(dir, "HEAD");
    stops(dir, "cherry-pick", "side~2", "side~1", "side");
    const d = await open(dir);
    await writeFile(join(dir, "a.txt"), "1\nM+S1\n3\n");
    expect(await d.data("gitContinueOperation", { files: ["a.txt"] })).toMatchObject({
      operation: "cherry-pick",
      state: "stopped",
      stoppedAt: { subject: "s2" },
      conflicts: [{ path: "a.txt" }],
    });
    const aborted = await d.data<Outcome>("gitAbortOperation");
    expect(aborted).toEqual({
      operation: "cherry-pick",
      state: "done",
      branch: "main",
      head: before,
      discarded: { commits: 1, files: ["a.txt"] },
    });
  });

  it("a pick concluded by gitCommit: one commit is finished; of several, the rest is still in progress and continues", async () => {
    const one = await diverged("pick-commit-one");
    stops(one, "cherry-pick", "side~2");
    const d1 = await open(one);
    await writeFile(join(one, "a.txt"), "1\nM+S1\n3\n");
    await d1.data("gitCommit", { message: "s1, picked", files: ["a.txt"] });
    expect((await d1.data<Record<string, unknown>>("getGitStatus")).inProgress).toBeUndefined();

    const dir = await diverged("pick-commit-range");
    stops(dir, "cherry-pick", "side~2", "side");
    const d = await open(dir);
    await writeFile(join(dir, "a.txt"), "1\nM+S1\n3\n");
    await d.data("gitCommit", { message: "s1, picked", files: ["a.txt"] });
    expect(await d.data("getGitStatus")).toMatchObject({ clean: true, inProgress: { operation: "cherry-pick" } });
    expect(await d.data("gitContinueOperation")).toMatchObject({ operation: "cherry-pick", state: "done", branch: "main" });
    expect(subjects(dir, "HEAD")).toEqual(["s3", "s1, picked", "m", "initial commit"]);
    expect((await d.data<Record<string, unknown>>("getGitStatus")).inProgress).toBeUndefined();
  });

  it("a resolution that leaves the picked commit empty: continue says to skip it, and skip does", async () => {
    const dir = await diverged("pick-empty");
    stops(dir, "cherry-pick", "side~2");
    const d = await open(dir);
    await writeFile(join(dir, "a.txt"), "1\nM\n3\n");
    const refused = await d.failure("gitContinueOperation", { files: ["a.txt"] });
    expect(refused).toMatchObject({ code: "nothing_to_commit", suggestion: expect.stringMatching(/skip: true/) });
    expect(await d.data("gitAbortOperation", { skip: true })).toMatchObject({
      operation: "cherry-pick",
      state: "done",
      discarded: { commit: { subject: "s1" } },
    });
  });

  it("a revert: continued after resolving, with git's revert message", async () => {
    const dir = await diverged("revert");
    fx.git(dir, "switch", "--quiet", "side");
    stops(dir, "revert", "side~2");
    const d = await open(dir);
    expect(await d.data("getGitStatus")).toMatchObject({ inProgress: { operation: "revert" } });
    await writeFile(join(dir, "a.txt"), "1\n2\n3\n");
    expect(await d.data("gitContinueOperation", { files: ["a.txt"] })).toMatchObject({
      operation: "revert",
      state: "done",
      branch: "side",
    });
    expect(subjects(dir, "HEAD")[0]).toBe('Revert "s1"');
  });
});

describe("other states", () => {
  it("nothing in progress: both tools say so, and where to look", async () => {
    const d = await open(await fx.repo(join(base, "idle")));
    for (const [tool, args] of [
      ["gitContinueOperation", {}],
      ["gitAbortOperation", {}],
      ["gitAbortOperation", { skip: true }],
    ] as const) {
      expect(await d.failure(tool, args), tool).toMatchObject({
        code: "nothing_in_progress",
        error: expect.stringMatching(/^No merge, rebase, cherry-pick or revert is in progress/),
        suggestion: expect.stringMatching(/getGitStatus/),
      });
    }
  });

  it("a bisect: continue points to marking commits; abort ends it", async () => {
    const dir = await fx.repo(join(base, "bisect"));
    for (const n of [1, 2, 3]) fx.git(dir, "commit", "--quiet", "--allow-empty", "-m", `step ${n}`);
    fx.git(dir, "bisect", "start", "main", "main~3");
    const d = await open(dir);
    expect(await d.failure("gitContinueOperation")).toMatchObject({
      code: "operation_in_progress",
      suggestion: expect.stringMatching(/git bisect good\|bad/),
    });
    expect(await d.data("gitAbortOperation")).toEqual({ operation: "bisect", state: "done", branch: "main", head: rev(dir, "main") });
  });

  it("a rebase stopped in a linked worktree, whose git directory is outside the workspace", async () => {
    const dir = await diverged("wt-main");
    const tree = join(base, "wt-linked");
    fx.git(dir, "worktree", "add", "--quiet", tree, "side");
    stops(tree, "rebase", "main");
    const d = await open(tree);
    expect((await d.failure("gitContinueOperation")).code).toBe("merge_conflict");
    await writeFile(join(tree, "a.txt"), "1\nM+S1\n3\n");
    expect(await d.data("gitContinueOperation", { files: ["a.txt"] })).toMatchObject({
      operation: "rebase",
      state: "stopped",
      stoppedAt: { subject: "s2" },
    });
    expect(await d.data("gitAbortOperation")).toMatchObject({
      operation: "rebase",
      state: "done",
      branch: "side",
      discarded: { commits: 1 },
    });
  });
});
