// watchFiles, getFileChanges and unwatchFiles on a real directory: changes read by polling (waiting
// for the first one, never sleeping), filtered by glob and hidden names, announced as
// notifications/message to a client that set a log level; watches are the session's own.
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { compileGlob } from "../../../src/lib/glob/index.ts";
import getFileChanges from "../../../src/tools/files/get-file-changes.ts";
import unwatchFiles from "../../../src/tools/files/unwatch-files.ts";
import watchFiles from "../../../src/tools/files/watch-files.ts";
import { MAX_PENDING, record, WATCH_IDLE_MS, WatchStore } from "../../../src/tools/files/watch-store.ts";
import { dispatcher, type Dispatcher } from "../../helpers/tool-dispatch.ts";
import { makeToolContext } from "../../helpers/tool-context.ts";

let base: string;
let root: string;
let d: Dispatcher;

interface Changes {
  watchId: string;
  changes: { path: string; change: string }[];
  overflowed: boolean;
}

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "cib-watch-")));
  root = join(base, "ws");
  await mkdir(join(root, "src"), { recursive: true });
  await writeFile(join(root, "src", "old.ts"), "old\n");
  d = await dispatcher(root);
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

/** Reads until `want` has been seen (events may come in more than one read). */
async function changesUntil(watchId: string, want: (seen: Changes["changes"]) => boolean): Promise<Changes["changes"]> {
  const seen: Changes["changes"] = [];
  for (let reads = 0; reads < 20 && !want(seen); reads++)
    seen.push(...(await d.data<Changes>("getFileChanges", { watchId, waitMs: 10_000 })).changes);
  return seen;
}

describe("watching files", () => {
  it("reports created, changed and deleted files, waiting for the first change", async () => {
    const { watchId, path } = await d.data<{ watchId: string; path: string }>("watchFiles", { path: "src" });
    expect(path).toBe("src");
    expect(await d.data("getFileChanges", { watchId })).toEqual({ watchId, changes: [], overflowed: false });
    await writeFile(join(root, "src", "new.ts"), "new\n");
    expect(await changesUntil(watchId, (s) => s.some((c) => c.path === "src/new.ts"))).toContainEqual({
      path: "src/new.ts",
      change: "created",
    });
    await writeFile(join(root, "src", "old.ts"), "changed\n");
    expect(await changesUntil(watchId, (s) => s.some((c) => c.path === "src/old.ts"))).toContainEqual({
      path: "src/old.ts",
      change: "changed",
    });
    await rm(join(root, "src", "new.ts"));
    expect(await changesUntil(watchId, (s) => s.some((c) => c.path === "src/new.ts"))).toContainEqual({
      path: "src/new.ts",
      change: "deleted",
    });
    expect(await d.data("unwatchFiles", { watchId })).toEqual({ watchId, droppedChanges: 0 });
    expect((await d.failure("getFileChanges", { watchId })).code).toBe("watch_not_found");
  });

  it("keeps to its glob and leaves out hidden files and .git", async () => {
    const { watchId } = await d.data<{ watchId: string }>("watchFiles", { pattern: "**/*.md" });
    await mkdir(join(root, ".git"), { recursive: true });
    await writeFile(join(root, ".git", "x.md"), "x");
    await writeFile(join(root, ".hidden.md"), "x");
    await writeFile(join(root, "src", "skip.ts"), "x");
    await writeFile(join(root, "src", "doc.md"), "x");
    const seen = await changesUntil(watchId, (s) => s.some((c) => c.path === "src/doc.md"));
    expect(seen.map((c) => c.path)).toEqual(["src/doc.md"]);
    await d.data("unwatchFiles", { watchId });
  });

  it("announces changes as notifications/message when the client set a log level", async () => {
    await d.fixture.call("logging/setLevel", { level: "info" });
    const { watchId } = await d.data<{ watchId: string }>("watchFiles", { path: "src" });
    await writeFile(join(root, "src", "announced.ts"), "x");
    await vi.waitFor(
      () => {
        const notes = d.fixture.sent.filter(
          (m) => "method" in m && m.method === "notifications/message" && (m.params as { logger?: string }).logger === "watchFiles",
        );
        expect(notes.some((m) => JSON.stringify(m).includes("src/announced.ts"))).toBe(true);
      },
      { timeout: 10_000, interval: 50 },
    );
    await d.data("unwatchFiles", { watchId });
  });

  it("fails on a missing or outside directory and a bad glob", async () => {
    expect((await d.failure("watchFiles", { path: "nope" })).code).toBe("file_not_found");
    expect((await d.failure("watchFiles", { path: "../" })).code).toBe("outside_workspace");
    expect((await d.failure("watchFiles", { pattern: "{a" })).code).toBe("invalid_arguments");
  });

  it("belongs to its session", async () => {
    const mine = await makeToolContext(root, { session: "mine" });
    const theirs = { ...mine, session: "theirs" };
    const { watchId } = (await watchFiles.handlers.headless!({ path: ".", includeHidden: false }, mine)) as { watchId: string };
    await expect(getFileChanges.handlers.headless?.({ watchId, waitMs: 0 }, theirs)).rejects.toMatchObject({ code: "watch_not_found" });
    await expect(getFileChanges.handlers.headless?.({ watchId, waitMs: 0 }, mine)).resolves.toMatchObject({ watchId });
    await expect(unwatchFiles.handlers.headless?.({ watchId }, theirs)).rejects.toMatchObject({ code: "watch_not_found" });
    await unwatchFiles.handlers.headless?.({ watchId }, mine);
  });
});

describe("WatchStore", () => {
  it("merges events per path, overflows past its bound, caps watches and closes idle ones", () => {
    let now = 0;
    const store = new WatchStore(() => now);
    const watch = store.add("s", "src", { glob: compileGlob("*.ts"), includeHidden: false });
    record(watch, { kind: "change", name: "a.ts" });
    record(watch, { kind: "rename", name: "a.ts" });
    record(watch, { kind: "change", name: "a.ts" });
    record(watch, { kind: "change", name: "a.md" });
    record(watch, { kind: "change", name: "node_modules/x.ts" });
    expect([...watch.pending]).toEqual([["src/a.ts", "rename"]]);
    for (let i = 0; i < MAX_PENDING + 5; i++) record(watch, { kind: "change", name: `f${i}.ts` });
    expect(watch.pending.size).toBe(MAX_PENDING);
    expect(watch.overflowed).toBe(true);
    for (let i = 1; i < 8; i++) store.add("s", "", { glob: undefined, includeHidden: false });
    expect(() => store.add("s", "", { glob: undefined, includeHidden: false })).toThrow(/at most 8/);
    now += WATCH_IDLE_MS + 1;
    expect(() => store.get("s", watch.id)).toThrow(/closed after 30 minutes/);
    expect(store.add("s", "", { glob: undefined, includeHidden: false }).session).toBe("s");
  });
});
