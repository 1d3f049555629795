// ctx.fs.commit with removals (a language server's edit that renames or deletes files): a removed
// file must still be the version read, and when a later step fails it is written back from the
// bytes held, with its mode, along with every write already swapped. The failure is injected
// through the Runtime port (as root no real one can be made on cue): one directory entry's removal.
import { chmod, mkdtemp, readFile, readdir, realpath, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNodeFs } from "../../../runtime/shared/fs.ts";
import { RuntimeError } from "../../../src/ports/errors.ts";
import type { DirHandle, Fs } from "../../../src/ports/fs.ts";
import { createWorkspace } from "../../../src/security/jail/workspace-jail.ts";
import { identityOf } from "../../../src/workspace/file-version.ts";
import { createWorkspaceFs, type FileWrite, type WorkspaceFs } from "../../../src/workspace/workspace-fs.ts";

let root: string;
const at = (rel: string) => join(root, rel);
const real = createNodeFs();

beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), "cib-removals-")));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function removal(fs: WorkspaceFs, name: string): Promise<FileWrite> {
  const read = await fs.readBytes(name, { maxBytes: 1000, forWrite: true });
  return {
    label: name,
    path: read.path,
    data: new Uint8Array(),
    expect: { identity: identityOf(read.stat), original: read.bytes },
    remove: true,
  };
}

async function workspaceFs(fs: Fs = real): Promise<WorkspaceFs> {
  return createWorkspaceFs(fs, await createWorkspace(real, { root }));
}

/** The real Fs, except that removing the entry `name` fails, as a busy or protected file would. */
function failingRemovalOf(name: string): Fs {
  const inner = new WeakMap<DirHandle, DirHandle>();
  const wrap = (dir: DirHandle): DirHandle => {
    const wrapped: DirHandle = {
      ...dir,
      openDirectory: async (n) => wrap(await dir.openDirectory(n)),
      rename: (n, target, targetName) => dir.rename(n, inner.get(target) ?? target, targetName),
      remove: async (n, opts) => {
        if (n === name) throw new RuntimeError("EPERM", `${n}: operation not permitted (injected)`);
        return dir.remove(n, opts);
      },
    };
    inner.set(wrapped, dir);
    return wrapped;
  };
  return { ...real, openDirectory: async (path) => wrap(await real.openDirectory(path)) };
}

describe("ctx.fs.commit with removals", () => {
  it("removes files and writes others in one commit (a rename as the bridge applies it)", async () => {
    await writeFile(at("old.ts"), "export const x = 1;\n");
    await chmod(at("old.ts"), 0o640);
    const fs = await workspaceFs();
    const gone = await removal(fs, "old.ts");
    const target = await fs.resolve("new.ts", { mustExist: false });
    await fs.commit([
      {
        label: "new.ts",
        path: target,
        data: gone.expect === "absent" ? new Uint8Array() : gone.expect.original,
        expect: "absent",
        mode: 0o640,
      },
      gone,
    ]);
    expect(await readdir(root)).toEqual(["new.ts"]);
    expect(await readFile(at("new.ts"), "utf8")).toBe("export const x = 1;\n");
    expect((await stat(at("new.ts"))).mode & 0o777).toBe(0o640);
    await rm(at("new.ts"));
  });

  it("puts back a removed file (bytes and mode) and the writes already made when a later removal fails", async () => {
    await writeFile(at("a.ts"), "A\n");
    await writeFile(at("b.ts"), "B\n");
    await chmod(at("b.ts"), 0o600);
    await writeFile(at("c.ts"), "C\n");
    const fs = await workspaceFs(failingRemovalOf("c.ts"));
    const a = await fs.readBytes("a.ts", { maxBytes: 100, forWrite: true });
    const writes: FileWrite[] = [
      {
        label: "a.ts",
        path: a.path,
        data: new TextEncoder().encode("A changed\n"),
        expect: { identity: identityOf(a.stat), original: a.bytes },
      },
      {
        label: "made.ts",
        path: await fs.resolve("made.ts", { mustExist: false }),
        data: new TextEncoder().encode("new\n"),
        expect: "absent",
      },
      await removal(fs, "b.ts"),
      await removal(fs, "c.ts"),
    ];
    await expect(fs.commit(writes)).rejects.toMatchObject({ message: expect.stringMatching(/c\.ts/) });
    expect((await readdir(root)).sort()).toEqual(["a.ts", "b.ts", "c.ts"]);
    expect([await readFile(at("a.ts"), "utf8"), await readFile(at("b.ts"), "utf8"), await readFile(at("c.ts"), "utf8")]).toEqual([
      "A\n",
      "B\n",
      "C\n",
    ]);
    expect((await stat(at("b.ts"))).mode & 0o777).toBe(0o600);
    await Promise.all(["a.ts", "b.ts", "c.ts"].map((n) => rm(at(n))));
  });

  it("refuses to remove a file that changed since it was read, before anything is written", async () => {
    await writeFile(at("d.ts"), "D\n");
    await writeFile(at("e.ts"), "E\n");
    const fs = await workspaceFs();
    const e = await fs.readBytes("e.ts", { maxBytes: 100, forWrite: true });
    const d = await removal(fs, "d.ts");
    await writeFile(at("d.ts"), "D, changed by someone else\n");
    const writes: FileWrite[] = [
      {
        label: "e.ts",
        path: e.path,
        data: new TextEncoder().encode("E changed\n"),
        expect: { identity: identityOf(e.stat), original: e.bytes },
      },
      d,
    ];
    await expect(fs.commit(writes)).rejects.toMatchObject({ code: "file_changed" });
    expect([await readFile(at("d.ts"), "utf8"), await readFile(at("e.ts"), "utf8")]).toEqual(["D, changed by someone else\n", "E\n"]);
    expect((await readdir(root)).sort()).toEqual(["d.ts", "e.ts"]);
    await Promise.all(["d.ts", "e.ts"].map((n) => rm(at(n))));
  });
});
