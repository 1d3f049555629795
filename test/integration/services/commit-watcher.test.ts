// Commits made outside the bridge, seen through the repository's reflog with real git: a terminal's
// commit is published once with its hash, branch, subject and file count; a checkout is not a
// commit; the bridge's own gitCommit (which publishes its commit itself) is not published twice;
// and a linked worktree (whose .git is a file) is followed too.
import { mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BridgeEvents } from "../../../src/capabilities/events/bridge-events.ts";
import type { CallOrigin } from "../../../src/capabilities/events/event-bus.ts";
import { createWorkspace } from "../../../src/security/jail/workspace-jail.ts";
import { reflogCommit, watchCommits } from "../../../src/services/git/commit-watcher.ts";
import { gitToolset } from "../../../src/tools/git/index.ts";
import { createToolEnvironment, toolContext } from "../../../src/tools/platform/tool-environment.ts";
import { gitFixture, type GitFixture } from "../../helpers/git-fixture.ts";
import { catalogOf } from "../../helpers/tool-context.ts";
import { dispatcher, type Dispatcher } from "../../helpers/tool-dispatch.ts";

const EVENT_WAIT_MS = 30_000;

let base: string;
let fx: GitFixture;
let root: string;
let d: Dispatcher;
const seen: { event: BridgeEvents["git.commit"]; origin: CallOrigin | undefined }[] = [];
const stops: (() => void)[] = [];

/** Follows `dir`'s repository, publishing on `d`'s bus (the bus gitCommit publishes on). */
async function follow(dir: string): Promise<void> {
  const runtime = fx.runtime();
  const host = createToolEnvironment(runtime, {
    workspace: await createWorkspace(runtime.fs, { root: dir }),
    settings: { timeoutMs: 20_000, slim: false, maxResultChars: 100_000 },
    catalog: catalogOf([]),
    events: d.fixture.events,
  });
  const lifetime = new AbortController();
  stops.push(() => lifetime.abort());
  const stop = await watchCommits({
    fs: runtime.fs,
    bus: d.fixture.events,
    log: { warn: (message) => console.warn(message) },
    gitContext: () =>
      toolContext(host, { session: "watcher", executables: ["git"], signal: lifetime.signal, progress: () => {}, log: () => {} }),
    debounceMs: 100,
    ownCommitWaitMs: 1_500,
  });
  stops.push(stop);
}

/** Resolves with the next git.commit whose subject is `subject` (bounded). */
function nextCommit(subject: string): Promise<BridgeEvents["git.commit"]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no git.commit "${subject}" within ${EVENT_WAIT_MS} ms`)), EVENT_WAIT_MS);
    const off = d.fixture.events.subscribe("git.commit", (event) => {
      if (event.subject !== subject) return;
      clearTimeout(timer);
      off();
      resolve(event);
    });
  });
}

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "cib-commits-")));
  fx = await gitFixture(base);
  root = await fx.repo(join(base, "repo"), { "README.md": "# demo\n", "src/a.ts": "export const a = 1;\n" });
  d = await dispatcher(root, { toolsets: [gitToolset], runtime: fx.runtime(), settings: { timeoutMs: 20_000 } });
  d.fixture.events.subscribe("git.commit", (event, origin) => seen.push({ event, origin }));
  await follow(root);
});

afterAll(async () => {
  for (const stop of stops) stop();
  await rm(base, { recursive: true, force: true });
});

describe("commits made outside the bridge", () => {
  it("reads commits, and only commits, from reflog lines", () => {
    const old = "0".repeat(40);
    const hash = "a".repeat(40);
    const line = (message: string) => `${old} ${hash} Test Author <author@example.com> 1700000000 +0000\t${message}`;
    expect(reflogCommit(line("commit: fix the parser"))).toEqual({ hash, subject: "fix the parser" });
    expect(reflogCommit(line("commit (amend): fix the parser"))).toEqual({ hash, subject: "fix the parser" });
    expect(reflogCommit(line("commit (initial): start"))).toEqual({ hash, subject: "start" });
    // `git commit` ending a conflicted cherry-pick or rebase step.
    expect(reflogCommit(line("commit (cherry-pick): port the fix"))).toEqual({ hash, subject: "port the fix" });
    expect(reflogCommit(line("commit (rebase): reword"))).toEqual({ hash, subject: "reword" });
    expect(reflogCommit(line("rebase (pick): reword"))).toBeUndefined();
    expect(reflogCommit(line("checkout: moving from main to other"))).toBeUndefined();
    expect(reflogCommit(line("pull: Fast-forward"))).toBeUndefined();
    expect(reflogCommit("not a reflog line")).toBeUndefined();
  });

  it("publishes a terminal's commit once, and gitCommit's own commit once", { timeout: 90_000 }, async () => {
    await writeFile(join(root, "src/a.ts"), "export const a = 2;\n");
    fx.git(root, "add", "--all");
    const terminal = nextCommit("from a terminal");
    fx.git(root, "commit", "--quiet", "-m", "from a terminal");
    const event = await terminal;
    expect(event).toEqual({
      hash: fx.git(root, "rev-parse", "--short=10", "HEAD").trim(),
      branch: "main",
      subject: "from a terminal",
      files: 1,
    });
    expect(seen.find((s) => s.event.subject === "from a terminal")?.origin).toBeUndefined();

    // A checkout moves HEAD but is no commit; the bridge's gitCommit publishes its own, with its call's origin.
    fx.git(root, "checkout", "--quiet", "-b", "feature");
    await writeFile(join(root, "README.md"), "# demo, changed\n");
    const result = await d.call(
      "gitCommit",
      { message: "through the bridge", files: ["README.md"] },
      { "claudecode/toolUseId": "toolu_1" },
    );
    expect(result.isError).not.toBe(true);
    // A later terminal commit's event comes after the wait of the bridge's one has run out.
    await writeFile(join(root, "src/b.ts"), "export const b = 1;\n");
    fx.git(root, "add", "--all");
    const later = nextCommit("later, from a terminal");
    fx.git(root, "commit", "--quiet", "-m", "later, from a terminal");
    expect(await later).toMatchObject({ branch: "feature", files: 1 });
    expect(seen.map((s) => s.event.subject)).toEqual(["from a terminal", "through the bridge", "later, from a terminal"]);
    expect(seen[1]?.origin).toEqual({ session: expect.any(String), toolUseId: "toolu_1" });
  });

  it("follows a linked worktree, whose .git is a file", { timeout: 90_000 }, async () => {
    const linked = join(base, "linked");
    fx.git(root, "worktree", "add", "--quiet", "-b", "side", linked);
    await follow(linked);
    await writeFile(join(linked, "side.txt"), "side\n");
    fx.git(linked, "add", "--all");
    const event = nextCommit("in the linked worktree");
    fx.git(linked, "commit", "--quiet", "-m", "in the linked worktree");
    expect(await event).toMatchObject({ branch: "side", files: 1 });
    // The main worktree's watcher does not see the linked one's HEAD.
    expect(seen.filter((s) => s.event.subject === "in the linked worktree")).toHaveLength(1);
  });
});
