// fetch, pull and push for real, against a local bare repository as the remote, with a second clone
// playing the colleague who pushes in between: a new branch with upstream, the main-branch guard,
// a rejected non-fast-forward push, a lease that refuses a stale force push, merge and rebase
// pulls, and a merge conflict on pull left for resolution.
import { appendFile, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BridgeEvents } from "../../../src/capabilities/events/bridge-events.ts";
import { gitToolset } from "../../../src/tools/git/index.ts";
import { gitFixture, type GitFixture } from "../../helpers/git-fixture.ts";
import { dispatcher, type Dispatcher } from "../../helpers/tool-dispatch.ts";

let base: string;
let fx: GitFixture;
let remote: string;
let mine: string;
let theirs: string;
let d: Dispatcher;
const pushes: BridgeEvents["git.push"][] = [];
const pulls: BridgeEvents["git.pull"][] = [];

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "cib-git-remote-")));
  fx = await gitFixture(base);
  const seed = await fx.repo(join(base, "seed"), { "shared.txt": "line 1\nline 2\nline 3\n" });
  remote = join(base, "origin.git");
  fx.git(base, "clone", "--quiet", "--bare", seed, remote);
  mine = join(base, "mine");
  theirs = join(base, "theirs");
  fx.git(base, "clone", "--quiet", remote, mine);
  fx.git(base, "clone", "--quiet", remote, theirs);
  d = await dispatcher(mine, { toolsets: [gitToolset], runtime: fx.runtime() });
  d.fixture.events.subscribe("git.push", (e) => pushes.push(e));
  d.fixture.events.subscribe("git.pull", (e) => pulls.push(e));
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

async function commit(dir: string, file: string, text: string, message: string): Promise<void> {
  await appendFile(join(dir, file), text);
  fx.git(dir, "add", file);
  fx.git(dir, "commit", "--quiet", "-m", message);
}

describe("push", () => {
  it("pushes a new branch with an upstream, and reports the outcome and the event", async () => {
    await d.data("gitCheckout", { branch: "feature", create: true });
    await commit(mine, "mine.txt", "mine 1\n", "my first change");
    expect(await d.data("gitPush", { setUpstream: true })).toEqual({ remote: "origin", branch: "feature", outcome: "new branch" });
    expect(fx.git(remote, "rev-parse", "feature")).toBe(fx.git(mine, "rev-parse", "HEAD"));
    expect(await d.data("getGitStatus")).toMatchObject({ branch: "feature", upstream: "origin/feature", ahead: 0, behind: 0 });
    await commit(mine, "mine.txt", "mine 2\n", "my second change");
    expect(await d.data("getGitStatus")).toMatchObject({ ahead: 1 });
    expect(await d.data("gitPush")).toMatchObject({ outcome: "fast-forward" });
    expect(await d.data("gitPush")).toMatchObject({ outcome: "up to date" });
    expect(pushes.slice(0, 2)).toEqual([
      { remote: "origin", branch: "feature", setUpstream: true, force: false },
      { remote: "origin", branch: "feature", setUpstream: false, force: false },
    ]);
  });

  it("refuses main, master and the remote's default branch unless the bridge allows it", async () => {
    const before = fx.git(remote, "rev-parse", "main");
    const refused = await d.failure("gitPush", { branch: "main" });
    expect(refused).toMatchObject({ code: "branch_protected", error: expect.stringContaining("origin/main") });
    expect(refused.suggestion).toMatch(/githubCreatePR.*--allow-push-to-main/);
    fx.git(mine, "branch", "develop");
    fx.git(mine, "symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/develop");
    expect((await d.failure("gitPush", { branch: "develop" })).code).toBe("branch_protected");
    fx.git(mine, "symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/main");
    expect(fx.git(remote, "rev-parse", "main")).toBe(before);

    const allowed = await dispatcher(mine, { toolsets: [gitToolset], runtime: fx.runtime(), settings: { allowPushToMain: true } });
    expect(await allowed.data("gitPush", { branch: "develop" })).toMatchObject({ outcome: "new branch" });
  });

  it("a non-fast-forward push is rejected with git's message and the way out", async () => {
    fx.git(theirs, "fetch", "--quiet");
    fx.git(theirs, "switch", "--quiet", "feature");
    await commit(theirs, "theirs.txt", "theirs 1\n", "their change");
    fx.git(theirs, "push", "--quiet");
    await commit(mine, "mine.txt", "mine 3\n", "my third change");
    const rejected = await d.failure("gitPush");
    expect(rejected.code).toBe("push_rejected");
    expect(rejected.error).toMatch(/\[rejected\]/);
    expect(rejected.suggestion).toMatch(/gitPull/);
  });

  it("fetch shows what arrived; pull with rebase replays my commit on theirs", async () => {
    const fetched = await d.data<{ remote: string | null; updated: string[] }>("gitFetch", { remote: "origin" });
    expect(fetched).toEqual({ remote: "origin", updated: [expect.stringMatching(/^[0-9a-f]+\.\.[0-9a-f]+ feature -> origin\/feature$/)] });
    expect(await d.data("getGitStatus")).toMatchObject({ ahead: 1, behind: 1 });
    expect(await d.text("gitListBranches", { includeRemote: true })).toMatch(/\nRemote-tracking:\n(.+\n)*origin\/feature [0-9a-f]{10} /);
    const pulled = await d.data<{ branch: string; newCommits: number }>("gitPull", { rebase: true });
    expect(pulled).toMatchObject({ branch: "feature", newCommits: 2 });
    expect(fx.git(mine, "log", "--format=%s", "-3").split("\n").slice(0, 3)).toEqual([
      "my third change",
      "their change",
      "my second change",
    ]);
    expect(await d.data("gitPush")).toMatchObject({ outcome: "fast-forward" });
    expect(pulls.at(-1)).toMatchObject({ remote: null, branch: "feature", rebase: true });
  });

  it("force is --force-with-lease: it overwrites what I last saw, and refuses a branch that moved since", async () => {
    fx.git(mine, "commit", "--quiet", "--amend", "-m", "my third change, reworded");
    expect((await d.failure("gitPush")).code).toBe("push_rejected");
    expect(await d.data("gitPush", { force: true })).toMatchObject({ outcome: "forced" });
    expect(pushes.at(-1)).toMatchObject({ force: true });

    fx.git(theirs, "fetch", "--quiet");
    fx.git(theirs, "reset", "--quiet", "--hard", "origin/feature");
    await commit(theirs, "theirs.txt", "theirs 2\n", "their second change");
    fx.git(theirs, "push", "--quiet");
    fx.git(mine, "commit", "--quiet", "--amend", "-m", "reworded again");
    const stale = await d.failure("gitPush", { force: true });
    expect(stale.code).toBe("push_rejected");
    expect(stale.error).toMatch(/stale info|fetch first/);
    expect(fx.git(remote, "log", "-1", "--format=%s", "feature").trim()).toBe("their second change");
  });
});

describe("pull", () => {
  it("merges the upstream's commits", async () => {
    fx.git(mine, "reset", "--quiet", "--hard", "HEAD~1");
    fx.git(mine, "switch", "--quiet", "main");
    fx.git(theirs, "switch", "--quiet", "main");
    await commit(theirs, "new-from-them.txt", "hello\n", "their main change");
    fx.git(theirs, "push", "--quiet", "origin", "main");
    const pulled = await d.data("gitPull");
    expect(pulled).toMatchObject({ branch: "main", newCommits: 1 });
  });

  it("a merge conflict on pull comes back as an error naming the file; status lists the conflict", async () => {
    await writeFile(join(theirs, "shared.txt"), "line 1\nTHEIR line 2\nline 3\n");
    fx.git(theirs, "commit", "--quiet", "-am", "their edit of line 2");
    fx.git(theirs, "push", "--quiet", "origin", "main");
    await writeFile(join(mine, "shared.txt"), "line 1\nMY line 2\nline 3\n");
    fx.git(mine, "commit", "--quiet", "-am", "my edit of line 2");
    const conflict = await d.failure("gitPull");
    expect(conflict.code).toBe("merge_conflict");
    expect(conflict.error).toMatch(/CONFLICT \(content\): Merge conflict in shared\.txt/);
    expect(conflict.suggestion).toMatch(/gitContinueOperation.*gitAbortOperation/);
    expect(await d.data("getGitStatus")).toMatchObject({ conflicts: [{ path: "shared.txt", conflict: "both modified" }] });

    // Resolved the usual way: edit, stage, commit (a merge commit, whose message git prepared).
    await writeFile(join(mine, "shared.txt"), "line 1\nOUR line 2\nline 3\n");
    await d.data("gitAdd", { files: ["shared.txt"] });
    expect(await d.data("gitCommit", { message: "Merge origin/main, keeping both edits" })).toMatchObject({
      subject: "Merge origin/main, keeping both edits",
    });
    expect(fx.git(mine, "rev-list", "--parents", "-1", "HEAD").trim().split(" ")).toHaveLength(3);
  });

  it("a rebase pull that stops on a conflict is finished by gitContinueOperation", async () => {
    fx.git(mine, "push", "--quiet", "origin", "main");
    fx.git(theirs, "pull", "--quiet", "--ff-only");
    await writeFile(join(theirs, "shared.txt"), "line 1\nTHEIR line 2, again\nline 3\n");
    fx.git(theirs, "commit", "--quiet", "-am", "their second edit of line 2");
    fx.git(theirs, "push", "--quiet", "origin", "main");
    await writeFile(join(mine, "shared.txt"), "line 1\nMY line 2, again\nline 3\n");
    fx.git(mine, "commit", "--quiet", "-am", "my second edit of line 2");
    expect((await d.failure("gitPull", { rebase: true })).code).toBe("merge_conflict");
    expect(await d.data("getGitStatus")).toMatchObject({
      branch: null,
      inProgress: { operation: "rebase" },
      conflicts: [{ path: "shared.txt" }],
    });
    await writeFile(join(mine, "shared.txt"), "line 1\nOUR line 2, again\nline 3\n");
    expect(await d.data("gitContinueOperation", { files: ["shared.txt"] })).toMatchObject({
      operation: "rebase",
      state: "done",
      branch: "main",
    });
    expect(fx.git(mine, "log", "--format=%s", "-2").trim().split("\n")).toEqual([
      "my second edit of line 2",
      "their second edit of line 2",
    ]);
  });

  it("an unreachable remote fails fast with the reason, never a prompt", async () => {
    fx.git(mine, "remote", "add", "gone", join(base, "no-such-remote.git"));
    const failure = await d.failure("gitFetch", { remote: "gone" });
    expect(failure.code).toBe("git_failed");
    expect(failure.error).toMatch(/does not appear to be a git repository|Could not read from remote/);
    expect((await d.failure("gitFetch", { remote: "--upload-pack=touch /tmp/x" })).code).toBe("invalid_ref");
  });
});
