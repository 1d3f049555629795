import { link, mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNodeFs } from "../../../runtime/shared/fs.ts";
import { ToolError, type ToolErrorCode } from "../../../src/errors.ts";
import { toFileUri } from "../../../src/lib/paths/file-uri.ts";
import { createWorkspace, type ResolveOptions, type Workspace } from "../../../src/security/jail/workspace-jail.ts";
import * as posix from "../../../src/lib/paths/posix-path.ts";
import { childPath, descendantPath } from "../../../src/security/jail/workspace-path.ts";

let base: string;
let root: string;
let outside: string;
let ws: Workspace;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "cib-paths-")));
  root = join(base, "ws");
  outside = join(base, "outside");
  await mkdir(join(root, "src", "deep"), { recursive: true });
  await mkdir(outside);
  await writeFile(join(root, "src", "a.ts"), "export {};\n");
  await writeFile(join(root, "with space #1.txt"), "x");
  await writeFile(join(outside, "secret.txt"), "secret");
  await symlink(outside, join(root, "out-dir"));
  await symlink(join(outside, "secret.txt"), join(root, "out-file"));
  await symlink(join(root, "src"), join(root, "in-dir"));
  await symlink(join(outside, "does-not-exist"), join(root, "dangling-out"));
  await writeFile(join(outside, "original.txt"), "shared");
  await link(join(outside, "original.txt"), join(root, "hard.txt"));
  ws = await createWorkspace(createNodeFs(), { root });
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

/** `path` is unknown: hostile callers send anything, and the jail must say so for non-strings too. */
async function rejectsWith(path: unknown, code: ToolErrorCode, opts?: ResolveOptions): Promise<ToolError> {
  const err = await ws.resolve(path as string, opts).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ToolError);
  expect((err as ToolError).code).toBe(code);
  return err as ToolError;
}

describe("posix-path", () => {
  it("normalizes, joins and relates lexically", () => {
    expect(posix.normalize("/a//b/./c/../d/")).toBe("/a/b/d");
    expect(posix.normalize("/../..")).toBe("/");
    expect(posix.normalize("a/../../b")).toBe("../b");
    expect(posix.normalize("")).toBe(".");
    expect(posix.join("/r", "x/../y")).toBe("/r/y");
    expect(posix.dirname("/a/b")).toBe("/a");
    expect(posix.dirname("/a")).toBe("/");
    expect(posix.basename("/a/b.ts")).toBe("b.ts");
    expect(posix.relative("/a/b", "/a/b/c/d")).toBe("c/d");
    expect(posix.relative("/a/b", "/a/x")).toBe("../x");
    expect(posix.relative("/a", "/a")).toBe("");
    expect(posix.isInside("/a/bc", "/a/b")).toBe(false);
    expect(posix.isInside("/a/b/c", "/a/b")).toBe(true);
    expect(posix.isInside("/x", "/")).toBe(true);
  });
});

describe("createWorkspace", () => {
  it("realpaths the root and refuses a missing or non-directory root", async () => {
    expect(ws.root).toBe(root);
    expect(ws.folders).toEqual([root]);
    await expect(createWorkspace(createNodeFs(), { root: join(base, "nope") })).rejects.toThrow(/does not exist/);
    await expect(createWorkspace(createNodeFs(), { root: join(root, "src", "a.ts") })).rejects.toThrow(/not a directory/);
  });

  it("accepts absolute paths spelled through the root as given (a symlinked root)", async () => {
    await symlink(root, join(base, "alias"));
    const aliased = await createWorkspace(createNodeFs(), { root: join(base, "alias") });
    expect(aliased.root).toBe(root);
    expect(await aliased.resolve(join(base, "alias", "src", "a.ts"))).toBe(join(root, "src", "a.ts"));
    expect(aliased.relative(join(base, "alias", "src", "a.ts"))).toBe("src/a.ts");
  });

  it("accepts paths inside any workspace folder", async () => {
    const multi = await createWorkspace(createNodeFs(), { root, folders: [outside, join(base, "missing")] });
    expect(multi.folders).toEqual([root, outside]);
    expect(await multi.resolve(join(outside, "secret.txt"))).toBe(join(outside, "secret.txt"));
    expect(await multi.resolve("out-file")).toBe(join(outside, "secret.txt"));
    expect(multi.relative(join(outside, "secret.txt"))).toBe(join(outside, "secret.txt"));
  });
});

describe("paths derived from checked ones", () => {
  it("childPath appends one component and refuses anything that is not one", () => {
    expect(childPath(ws.root, "src")).toBe(join(root, "src"));
    for (const name of ["", ".", "..", "a/b", "../x", "x\0y"]) {
      expect(() => childPath(ws.root, name), name).toThrow(ToolError);
    }
  });

  it("descendantPath walks component by component and refuses a climb", () => {
    expect(descendantPath(ws.root, "")).toBe(root);
    expect(descendantPath(ws.root, "src/deep")).toBe(join(root, "src", "deep"));
    expect(() => descendantPath(ws.root, "src/../../outside")).toThrow(ToolError);
  });

  it("parentOf names the directory above, but never above a workspace folder", async () => {
    expect(ws.parentOf(await ws.resolve("src/a.ts"))).toBe(join(root, "src"));
    expect(ws.parentOf(await ws.resolve("src"))).toBe(root);
    expect(() => ws.parentOf(ws.root)).toThrow(/parent is outside the workspace/);
  });
});

describe("Workspace.resolve", () => {
  it("resolves relative and absolute paths inside the root", async () => {
    expect(await ws.resolve("src/a.ts")).toBe(join(root, "src", "a.ts"));
    expect(await ws.resolve(join(root, "src", "a.ts"))).toBe(join(root, "src", "a.ts"));
    expect(await ws.resolve("src/deep/../a.ts")).toBe(join(root, "src", "a.ts"));
    expect(await ws.resolve(".")).toBe(root);
    expect(ws.relative(join(root, "src", "a.ts"))).toBe("src/a.ts");
    expect(ws.relative(root)).toBe("");
  });

  it("rejects empty, non-string and null-byte paths", async () => {
    await rejectsWith("", "invalid_path");
    await rejectsWith(42, "invalid_path");
    await rejectsWith("src/a.ts\0.png", "invalid_path");
    await rejectsWith("file:///tmp/x%00y", "invalid_path");
  });

  it("rejects a very long path", async () => {
    const err = await rejectsWith(`src/${"a".repeat(5000)}`, "invalid_path");
    expect(err.message).toMatch(/4096/);
  });

  it("rejects .. that climbs out and absolute paths outside, naming the root", async () => {
    const err = await rejectsWith("../outside/secret.txt", "outside_workspace");
    expect(err.suggestion).toContain(root);
    await rejectsWith("src/../../outside/secret.txt", "outside_workspace");
    await rejectsWith("/etc/passwd", "outside_workspace");
    await rejectsWith(join(outside, "secret.txt"), "outside_workspace");
  });

  it("rejects a symlinked ancestor that points outside", async () => {
    await rejectsWith("out-dir/secret.txt", "outside_workspace");
    await rejectsWith("out-dir/new.txt", "outside_workspace", { mustExist: false });
  });

  it("rejects a symlinked file that points outside, for reads and writes", async () => {
    await rejectsWith("out-file", "outside_workspace");
    await rejectsWith("out-file", "outside_workspace", { forWrite: true });
  });

  it("refuses a dangling symlink, whose target cannot be checked", async () => {
    await rejectsWith("dangling-out", "invalid_path", { mustExist: false, forWrite: true });
  });

  it("allows symlinks that stay inside, returning the real path", async () => {
    expect(await ws.resolve("in-dir/a.ts")).toBe(join(root, "src", "a.ts"));
  });

  it("reports missing files unless mustExist is false", async () => {
    const err = await rejectsWith("src/missing.ts", "file_not_found");
    expect(err.suggestion).toMatch(/findFiles/);
    expect(await ws.resolve("src/new/dir/file.ts", { mustExist: false })).toBe(join(root, "src", "new", "dir", "file.ts"));
    expect(await ws.resolve("in-dir/new.ts", { mustExist: false })).toBe(join(root, "src", "new.ts"));
  });

  it("refuses a path through a regular file", async () => {
    await rejectsWith("src/a.ts/x", "invalid_path", { mustExist: false });
  });

  it("refuses to write through a hard link but may read it", async () => {
    expect(await ws.resolve("hard.txt")).toBe(join(root, "hard.txt"));
    const err = await rejectsWith("hard.txt", "invalid_path", { forWrite: true });
    expect(err.message).toMatch(/hard link/);
    expect(await ws.resolve("src/a.ts", { forWrite: true })).toBe(join(root, "src", "a.ts"));
  });

  it("accepts file:// URIs, percent-decoded", async () => {
    const uri = toFileUri(join(root, "with space #1.txt"));
    expect(uri).toContain("with%20space%20%231.txt");
    expect(await ws.resolve(uri)).toBe(join(root, "with space #1.txt"));
    expect(await ws.resolve(`file://localhost${join(root, "src", "a.ts")}`)).toBe(join(root, "src", "a.ts"));
    await rejectsWith(toFileUri(join(outside, "secret.txt")), "outside_workspace");
    await rejectsWith(`file://evil.example${root}/src/a.ts`, "invalid_path");
    await rejectsWith(`file://${root}/%2e%2e/outside/secret.txt`, "outside_workspace");
  });
});

describe("POSIX semantics for ..", () => {
  it("resolves .. after a symlink from the link's target, as the kernel does", async () => {
    // out-dir -> outside: out-dir/../x is outside/../x, i.e. next to the outside dir, not ws/x.
    await rejectsWith("out-dir/../ws/src/a.ts", "outside_workspace");
    await rejectsWith("out-dir/../secret.txt", "outside_workspace");
    // in-dir -> src: in-dir/../README is src/../README, i.e. ws/README.
    await writeFile(join(root, "README"), "r");
    expect(await ws.resolve("in-dir/../README")).toBe(join(root, "README"));
    expect(await ws.resolve("in-dir/../src/a.ts")).toBe(join(root, "src", "a.ts"));
  });

  it("refuses .. through a directory that does not exist", async () => {
    await rejectsWith("missing/../src/a.ts", "invalid_path", { mustExist: false });
    await rejectsWith("missing/../src/a.ts", "invalid_path");
  });

  it("never looks at the disk outside: a plainly outside path is refused lexically", async () => {
    const err = await rejectsWith("../../../../../../etc/passwd", "outside_workspace");
    expect(err.message).toBe("../../../../../../etc/passwd is outside the workspace");
  });
});

describe("hostile paths (reads and writes)", () => {
  const hostile: [string, ToolErrorCode][] = [
    ["../outside/secret.txt", "outside_workspace"],
    ["src/../../outside/secret.txt", "outside_workspace"],
    ["./../outside", "outside_workspace"],
    ["/etc/passwd", "outside_workspace"],
    ["//etc/passwd", "outside_workspace"],
    ["out-dir/secret.txt", "outside_workspace"],
    ["out-dir/../outside/secret.txt", "outside_workspace"],
    ["out-file", "outside_workspace"],
    ["in-dir/../../outside/secret.txt", "outside_workspace"],
    ["dangling-out", "invalid_path"],
    ["src/a.ts\0", "invalid_path"],
    ["file:///etc/passwd", "outside_workspace"],
    ["file://evil.example/etc/passwd", "invalid_path"],
    ["file:///%2e%2e/etc/passwd", "outside_workspace"],
    ["src/a.ts/../../..", "outside_workspace"],
    ["src/a.ts/../a.ts", "invalid_path"],
    ["in-dir/a.ts/../a.ts", "invalid_path"],
  ];
  it.each(hostile)("%s is refused (%s) for reads and for writes", async (path, code) => {
    await rejectsWith(path, code);
    await rejectsWith(path, code, { mustExist: false, forWrite: true });
  });
});
