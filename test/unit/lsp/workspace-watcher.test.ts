// What the workspace watcher must not miss, since kept diagnostics are reused only while it sees
// every change (language-server.ts, `watching`): a folder the OS would not watch (inotify's limit)
// makes it say so, where a folder that went away does not; a package install is heard through the
// top of node_modules, without watching the packages below it.
import { describe, expect, it } from "vitest";
import { WorkspaceWatcher } from "../../../src/lsp/workspace-watcher.ts";
import type { DirEntry, FileStat, WatchEvent, WatchOptions } from "../../../src/ports/fs.ts";
import { RuntimeError } from "../../../src/ports/errors.ts";

/** A made-up tree (folders end in "/") whose watches the test fires by hand. */
function fakeFs(paths: string[], opts: { refuse?: string[] } = {}) {
  const present = new Set(paths.map((p) => p.replace(/\/$/, "")));
  const folders = new Set(paths.filter((p) => p.endsWith("/")).map((p) => p.slice(0, -1)));
  const watches = new Map<string, { fire(name: string): void; fail(): void }>();
  const stat = (path: string): FileStat => {
    if (!present.has(path)) throw new RuntimeError("ENOENT", `no ${path}`);
    const isDirectory = folders.has(path);
    return { size: 0, mtimeMs: 0, mode: 0, nlink: 1, dev: 1, ino: 1, isFile: !isDirectory, isDirectory, isSymbolicLink: false };
  };
  const fs = {
    lstat: async (path: string) => stat(path),
    readdir: async (dir: string): Promise<DirEntry[]> =>
      [...present]
        .filter((p) => p.startsWith(`${dir}/`) && !p.slice(dir.length + 1).includes("/"))
        .map((p) => ({ name: p.slice(dir.length + 1), isFile: !folders.has(p), isDirectory: folders.has(p), isSymbolicLink: false })),
    watch: (dir: string, onEvent: (event: WatchEvent) => void, options?: WatchOptions) => {
      if (opts.refuse?.includes(dir)) throw new RuntimeError("ENOSPC", "inotify watch limit reached");
      watches.set(dir, {
        fire: (name) => onEvent({ kind: "rename", name }),
        fail: () => options?.onError?.(new RuntimeError("OTHER", "watch failed")),
      });
      return { close: () => watches.delete(dir) };
    },
  };
  return { fs, watches, present, folders };
}

function watcherOn(fake: ReturnType<typeof fakeFs>) {
  const heard: { path: string; type: number }[] = [];
  const watcher = new WorkspaceWatcher(fake.fs, (changes) => heard.push(...changes));
  return { watcher, heard };
}

describe("WorkspaceWatcher", () => {
  it("says it does not see every change when the OS refuses to watch a folder that is there", async () => {
    const fake = fakeFs(["/w/", "/w/src/", "/w/src/a.ts", "/w/lib/"], { refuse: ["/w/lib"] });
    const { watcher } = watcherOn(fake);
    await watcher.start(["/w"]);
    expect(watcher.truncated).toBe(true);
    expect([...fake.watches.keys()].sort()).toEqual(["/w", "/w/src"]);
    watcher.close();
  });

  it("does not when a watched folder that failed is gone, and does when one that failed is still there", async () => {
    const fake = fakeFs(["/w/", "/w/gone/", "/w/kept/"]);
    const { watcher } = watcherOn(fake);
    await watcher.start(["/w"]);
    fake.present.delete("/w/gone");
    fake.watches.get("/w/gone")?.fail();
    await watcher.settled();
    await expect.poll(() => fake.watches.has("/w/gone")).toBe(false);
    expect(watcher.truncated).toBe(false);
    fake.watches.get("/w/kept")?.fail();
    await expect.poll(() => watcher.truncated).toBe(true);
    watcher.close();
  });

  it("hears a package install at the top of node_modules, and nothing below it", async () => {
    const fake = fakeFs(["/w/", "/w/a.ts", "/w/node_modules/", "/w/node_modules/.package-lock.json", "/w/node_modules/left/"]);
    const { watcher, heard } = watcherOn(fake);
    await watcher.start(["/w"]);
    expect([...fake.watches.keys()].sort()).toEqual(["/w", "/w/node_modules"]);
    for (const name of ["right", "right/index.d.ts"]) fake.present.add(`/w/node_modules/${name}`);
    fake.folders.add("/w/node_modules/right");
    fake.watches.get("/w/node_modules")?.fire("right");
    fake.watches.get("/w/node_modules")?.fire(".package-lock.json");
    await watcher.settled();
    expect(heard).toEqual([{ path: "/w/node_modules/.package-lock.json", type: 2 }]);
    expect(fake.watches.has("/w/node_modules/right")).toBe(false);
    watcher.close();
  });

  it("watches a node_modules made after the start the same way", async () => {
    const fake = fakeFs(["/w/", "/w/a.ts"]);
    const { watcher, heard } = watcherOn(fake);
    await watcher.start(["/w"]);
    for (const path of ["/w/node_modules", "/w/node_modules/pkg"]) {
      fake.present.add(path);
      fake.folders.add(path);
    }
    fake.watches.get("/w")?.fire("node_modules");
    await watcher.settled();
    expect(heard).toEqual([{ path: "/w/node_modules", type: 1 }]);
    expect([...fake.watches.keys()].sort()).toEqual(["/w", "/w/node_modules"]);
    watcher.close();
  });
});
