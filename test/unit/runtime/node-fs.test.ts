// The Node Fs port (runtime/shared/fs.ts) on real files. Its FIFO case runs mkfifo, so it is in
// test/integration/runtime/node-fs-fifo.test.ts.
import { chmod, lstat, mkdir, mkdtemp, readFile, readdir, realpath, rename, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createNodeFs } from "../../../runtime/shared/fs.ts";
import { nodeErrorCode } from "../../../runtime/shared/errors.ts";
import { RuntimeError } from "../../../src/ports/errors.ts";

const fs = createNodeFs();
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cib-nodefs-"));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The code a port call failed with: it must fail with the port's RuntimeError, never Node's own. */
async function codeOf(promise: Promise<unknown>): Promise<string> {
  return promise.then(
    () => "resolved",
    (err: unknown) => (err instanceof RuntimeError ? err.code : `not a RuntimeError: ${String(err)}`),
  );
}

/** The code a raw node:fs call (used to check the disk) failed with. */
async function nodeCodeOf(promise: Promise<unknown>): Promise<string> {
  return promise.then(
    () => "resolved",
    (err: unknown) => nodeErrorCode(err) ?? "none",
  );
}

describe("writeFileAtomic", () => {
  it("creates and replaces a file, leaving no temp files behind", async () => {
    const path = join(dir, "a.json");
    await fs.writeFileAtomic(path, "one");
    await fs.writeFileAtomic(path, new TextEncoder().encode("two"));
    expect(await readFile(path, "utf8")).toBe("two");
    expect(await readdir(dir)).toEqual(["a.json"]);
  });

  it("applies an explicit mode despite the umask, and keeps an existing file's mode", async () => {
    const path = join(dir, "secret");
    await fs.writeFileAtomic(path, "x", { mode: 0o600 });
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    await fs.writeFileAtomic(path, "y");
    expect((await stat(path)).mode & 0o777).toBe(0o600);
  });

  it("fails with the POSIX code and cleans up when the directory is missing", async () => {
    expect(await codeOf(fs.writeFileAtomic(join(dir, "no", "a.txt"), "x"))).toBe("ENOENT");
    expect(await readdir(dir)).toEqual([]);
  });

  it("cleans its temp file when the rename fails", async () => {
    await fs.mkdir(join(dir, "target"));
    await writeFile(join(dir, "target", "keep"), "k");
    expect(await codeOf(fs.writeFileAtomic(join(dir, "target"), "x"))).not.toBe("resolved");
    expect((await readdir(dir)).sort()).toEqual(["target"]);
  });
});

describe("createExclusive", () => {
  it("creates with mode 0600 and refuses an existing name with EEXIST", async () => {
    const path = join(dir, "lock");
    await fs.createExclusive(path, "pid", 0o600);
    expect(await readFile(path, "utf8")).toBe("pid");
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(await codeOf(fs.createExclusive(path, "other", 0o600))).toBe("EEXIST");
    expect(await readFile(path, "utf8")).toBe("pid");
  });

  it("sets the exact mode whatever the umask", async () => {
    const previous = process.umask(0o077);
    try {
      await fs.createExclusive(join(dir, "shared"), "x", 0o644);
      await fs.writeFileAtomic(join(dir, "atomic"), "x", { mode: 0o644 });
    } finally {
      process.umask(previous);
    }
    expect((await stat(join(dir, "shared"))).mode & 0o777).toBe(0o644);
    expect((await stat(join(dir, "atomic"))).mode & 0o777).toBe(0o644);
  });

  it("does not follow a pre-planted symlink, dangling or not", async () => {
    const victim = join(dir, "victim");
    await writeFile(victim, "original");
    await symlink(victim, join(dir, "planted"));
    await symlink(join(dir, "nowhere"), join(dir, "dangling"));
    expect(await codeOf(fs.createExclusive(join(dir, "planted"), "evil", 0o600))).toBe("EEXIST");
    expect(await codeOf(fs.createExclusive(join(dir, "dangling"), "evil", 0o600))).toBe("EEXIST");
    expect(await readFile(victim, "utf8")).toBe("original");
    expect(await nodeCodeOf(lstat(join(dir, "nowhere")))).toBe("ENOENT");
  });
});

describe("the rest of Fs", () => {
  it("stats, lists with types, and fails with the POSIX codes", async () => {
    await fs.mkdir(join(dir, "sub", "deeper"), { recursive: true });
    await writeFile(join(dir, "f.txt"), "hello");
    await symlink(join(dir, "f.txt"), join(dir, "link"));
    const entries = (await fs.readdir(dir)).sort((a, b) => a.name.localeCompare(b.name));
    expect(entries).toEqual([
      { name: "f.txt", isFile: true, isDirectory: false, isSymbolicLink: false },
      { name: "link", isFile: false, isDirectory: false, isSymbolicLink: true },
      { name: "sub", isFile: false, isDirectory: true, isSymbolicLink: false },
    ]);
    const st = await fs.stat(join(dir, "link"));
    expect(st).toMatchObject({ isFile: true, isSymbolicLink: false, size: 5, nlink: 1 });
    expect((await fs.lstat(join(dir, "link"))).isSymbolicLink).toBe(true);
    expect(await fs.realpath(join(dir, "link"))).toBe(await fs.realpath(join(dir, "f.txt")));
    expect(await fs.readTextFile(join(dir, "f.txt"))).toBe("hello");
    expect(Array.from(await fs.readFile(join(dir, "f.txt")))).toEqual(Array.from(new TextEncoder().encode("hello")));
    expect(await codeOf(fs.readFile(join(dir, "missing")))).toBe("ENOENT");
    expect(await codeOf(fs.readdir(join(dir, "f.txt")))).toBe("ENOTDIR");
    await fs.rename(join(dir, "f.txt"), join(dir, "g.txt"));
    await fs.chmod(join(dir, "g.txt"), 0o640);
    expect((await stat(join(dir, "g.txt"))).mode & 0o777).toBe(0o640);
    await fs.rm(join(dir, "sub"), { recursive: true });
    await fs.rm(join(dir, "sub"), { force: true });
    expect(await nodeCodeOf(stat(join(dir, "sub")))).toBe("ENOENT");
  });
});

describe("descriptor handles (openFile, openDirectory)", () => {
  it("reads a byte range through the descriptor and knows where it really is", async () => {
    await writeFile(join(dir, "f.txt"), "hello world");
    const file = await fs.openFile(join(dir, "f.txt"));
    expect((await file.stat()).isFile).toBe(true);
    expect(new TextDecoder().decode(await file.read(6, 100))).toBe("world");
    expect((await file.read(100, 10)).length).toBe(0);
    expect(await file.realPath()).toBe(await realpath(join(dir, "f.txt")));
    await file.close();
    await file.close();
  });

  it("lists and changes entries relative to the directory it opened, even after its path is swapped", async () => {
    await mkdir(join(dir, "real"));
    await mkdir(join(dir, "elsewhere"));
    await writeFile(join(dir, "real", "a.txt"), "a");
    const handle = await fs.openDirectory(join(dir, "real"));
    // Swap the directory's path for a symlink to another directory: the handle must not follow.
    await rename(join(dir, "real"), join(dir, "moved"));
    await symlink(join(dir, "elsewhere"), join(dir, "real"));
    expect((await handle.list()).map((e) => e.name)).toEqual(["a.txt"]);
    await handle.writeFile("b.txt", new TextEncoder().encode("b"), { mode: 0o640 });
    expect(await readFile(join(dir, "moved", "b.txt"), "utf8")).toBe("b");
    expect((await stat(join(dir, "moved", "b.txt"))).mode & 0o777).toBe(0o640);
    expect(await readdir(join(dir, "elsewhere"))).toEqual([]);
    expect(await handle.realPath()).toBe(await realpath(join(dir, "moved")));
    await handle.close();
  });

  it("replaces atomically keeping the mode, or creates exclusively, and validates names", async () => {
    await writeFile(join(dir, "keep.sh"), "old");
    await chmod(join(dir, "keep.sh"), 0o755);
    const handle = await fs.openDirectory(dir);
    await handle.writeFile("keep.sh", new TextEncoder().encode("new"));
    expect(await readFile(join(dir, "keep.sh"), "utf8")).toBe("new");
    expect((await stat(join(dir, "keep.sh"))).mode & 0o777).toBe(0o755);
    expect(await codeOf(handle.writeFile("keep.sh", new Uint8Array(), { exclusive: true }))).toBe("EEXIST");
    await handle.writeFile("fresh", new TextEncoder().encode("f"), { exclusive: true });
    expect(await readFile(join(dir, "fresh"), "utf8")).toBe("f");
    for (const bad of ["", ".", "..", "a/b", "x\0"]) expect(await codeOf(handle.writeFile(bad, new Uint8Array()))).toBe("EINVAL");
    // No temporary file is left behind.
    expect((await readdir(dir)).sort()).toEqual(["fresh", "keep.sh"]);
    await handle.close();
  });

  it("removes a tree without following a symlink inside it", async () => {
    await mkdir(join(dir, "victim"));
    await writeFile(join(dir, "victim", "precious"), "p");
    await mkdir(join(dir, "tree", "sub"), { recursive: true });
    await writeFile(join(dir, "tree", "sub", "f"), "f");
    await symlink(join(dir, "victim"), join(dir, "tree", "sub", "link"));
    const handle = await fs.openDirectory(dir);
    expect(await codeOf(handle.remove("tree"))).toBe("ENOTEMPTY");
    await handle.remove("tree", { recursive: true });
    expect(await nodeCodeOf(stat(join(dir, "tree")))).toBe("ENOENT");
    expect(await readFile(join(dir, "victim", "precious"), "utf8")).toBe("p");
    await handle.close();
  });

  it("renames between two directory handles", async () => {
    await mkdir(join(dir, "from"));
    await mkdir(join(dir, "to"));
    await writeFile(join(dir, "from", "x"), "x");
    const from = await fs.openDirectory(join(dir, "from"));
    const to = await fs.openDirectory(join(dir, "to"));
    await from.rename("x", to, "y");
    expect(await readFile(join(dir, "to", "y"), "utf8")).toBe("x");
    expect((await from.entryStat("..").catch((e: unknown) => e)) instanceof RuntimeError).toBe(true);
    expect((await to.entryStat("y")).isFile).toBe(true);
    await from.close();
    await to.close();
  });
});
