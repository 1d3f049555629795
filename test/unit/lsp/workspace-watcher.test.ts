// What the workspace watcher must not miss, since kept diagnostics are reused only while it sees
// every change (language-server.ts, `watching`): a folder the OS would not watch (inotify's limit)
// makes it say so, where a folder that went away does not; a package install is heard through the
// top of node_modules, without watching the packages below it; files written into a folder before
// its batch watched it are told as Created; clangd's compilation database is heard in build/ and
// in a folder a .clangd names, and nothing else there.
import { describe, expect, it } from "vitest";
import { WorkspaceWatcher } from "../../../src/lsp/workspace-watcher.ts";
import type { DirEntry, FileStat, WatchEvent, WatchOptions } from "../../../src/ports/fs.ts";
import { RuntimeError } from "../../../src/ports/errors.ts";
import { fakeStat } from "../../helpers/fake-stat.ts";

/** A made-up tree (folders end in "/") whose watches the test fires by hand. */
function fakeFs(paths: string[], opts: { refuse?: string[] } = {}) {
  const present = new Set(paths.map((p) => p.replace(/\/$/, "")));
  const folders = new Set(paths.filter((p) => p.endsWith("/")).map((p) => p.slice(0, -1)));
  const watches = new Map<string, { fire(name: string): void; fail(): void }>();
  const stat = (path: string): FileStat => {
    if (!present.has(path)) throw new RuntimeError("ENOENT", `no ${path}`);
    return fakeStat(folders.has(path) ? "dir" : "file");
  };
  const fs = {
    lstat: async (path: string) => stat(path),
    // No links in a made-up tree: a path is its own real path, when it is there.
    realpath: async (path: string) => {
      stat(path);
      return path;
    },
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

  it("tells a save renamed over a file that was there as Changed, a new file as Created, a removed one as Deleted", async () => {
    const fake = fakeFs(["/w/", "/w/src/", "/w/src/dep.ts", "/w/src/gone.ts"]);
    const { watcher, heard } = watcherOn(fake);
    await watcher.start(["/w"]);
    // Every one arrives as "rename": sed -i's temporary file renamed over dep.ts, a new file, a removal.
    fake.present.add("/w/src/new.ts");
    fake.present.delete("/w/src/gone.ts");
    for (const name of ["dep.ts", "new.ts", "gone.ts"]) fake.watches.get("/w/src")?.fire(name);
    await watcher.settled();
    expect(heard).toEqual([
      { path: "/w/src/dep.ts", type: 2 },
      { path: "/w/src/new.ts", type: 1 },
      { path: "/w/src/gone.ts", type: 3 },
    ]);
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

  it("tells the files a new folder already held when it was first looked at as Created, once", async () => {
    const fake = fakeFs(["/w/", "/w/a.c"]);
    const { watcher, heard } = watcherOn(fake);
    await watcher.start(["/w"]);
    // mkdir, two writes and a subfolder, all before the batch goes: only the folder made an event.
    for (const path of ["/w/lib", "/w/lib/x.c", "/w/lib/.clangd", "/w/lib/deep", "/w/lib/deep/y.h"]) fake.present.add(path);
    for (const path of ["/w/lib", "/w/lib/deep"]) fake.folders.add(path);
    fake.watches.get("/w")?.fire("lib");
    await watcher.settled();
    expect(heard).toEqual([
      { path: "/w/lib", type: 1 },
      { path: "/w/lib/x.c", type: 1 },
      { path: "/w/lib/.clangd", type: 1 },
      { path: "/w/lib/deep/y.h", type: 1 },
    ]);
    heard.length = 0;
    fake.watches.get("/w/lib")?.fire("x.c");
    await watcher.settled();
    expect(heard).toEqual([{ path: "/w/lib/x.c", type: 2 }]);
    watcher.close();
  });

  it("hears the compilation database and the index folder in build/, and nothing else there", async () => {
    const fake = fakeFs(["/w/", "/w/build/", "/w/build/CMakeCache.txt", "/w/build/CMakeFiles/"]);
    const { watcher, heard } = watcherOn(fake);
    await watcher.start(["/w"]);
    expect([...fake.watches.keys()].sort()).toEqual(["/w", "/w/build"]);
    fake.present.add("/w/build/compile_commands.json");
    for (const name of ["CMakeCache.txt", "compile_commands.json"]) fake.watches.get("/w/build")?.fire(name);
    await watcher.settled();
    expect(heard).toEqual([{ path: "/w/build/compile_commands.json", type: 1 }]);
    watcher.close();
  });

  it("watches a build/ made after the start, telling the database already in it", async () => {
    const fake = fakeFs(["/w/", "/w/src/"]);
    const { watcher, heard } = watcherOn(fake);
    await watcher.start(["/w"]);
    for (const path of ["/w/src/build", "/w/src/build/compile_commands.json", "/w/src/build/main.o"]) fake.present.add(path);
    fake.folders.add("/w/src/build");
    fake.watches.get("/w/src")?.fire("build");
    await watcher.settled();
    expect(heard).toEqual([
      { path: "/w/src/build", type: 1 },
      { path: "/w/src/build/compile_commands.json", type: 1 },
    ]);
    expect(fake.watches.has("/w/src/build")).toBe(true);
    watcher.close();
  });

  it("watches a database folder a .clangd names inside a skipped tree, for the database only", async () => {
    const fake = fakeFs(["/w/", "/w/out/", "/w/out/db/", "/w/out/db/compile_commands.json"]);
    const { watcher, heard } = watcherOn(fake);
    await watcher.start(["/w"]);
    expect(fake.watches.has("/w/out/db")).toBe(false);
    await watcher.watchNames("/w/out/db", new Set(["compile_commands.json"]));
    expect(fake.watches.has("/w/out/db")).toBe(true);
    for (const name of ["compile_commands.json", "other.json"]) fake.watches.get("/w/out/db")?.fire(name);
    await watcher.settled();
    expect(heard).toEqual([{ path: "/w/out/db/compile_commands.json", type: 2 }]);
    watcher.close();
  });
});
