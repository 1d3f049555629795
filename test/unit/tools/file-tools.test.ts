// The files toolset through the real dispatcher on a real temporary workspace: createFile,
// deleteFile (and its trash, restored with renameFile), renameFile and getBufferContent, each
// happy path and each documented failure. That the trash stays out of listings and searches needs
// rg, and is in test/integration/tools/trash-listing.test.ts.
import { chmod, link, lstat, mkdir, mkdtemp, readFile, readdir, readlink, realpath, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dispatcher, type Dispatcher } from "../../helpers/tool-dispatch.ts";

let base: string;
let root: string;
let d: Dispatcher;

const at = (rel: string) => join(root, rel);
const put = async (rel: string, content: string | Uint8Array) => {
  await mkdir(join(at(rel), ".."), { recursive: true });
  await writeFile(at(rel), content);
};
const exists = (path: string) =>
  lstat(path).then(
    () => true,
    () => false,
  );

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "cib-files-")));
  root = join(base, "ws");
  await mkdir(root);
  await mkdir(join(base, "outside"));
  await writeFile(join(base, "outside", "secret.txt"), "secret\n");
  d = await dispatcher(root);
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe("createFile", () => {
  it("creates a file with content and its missing parents, and answers with its hash", async () => {
    const out = await d.data("createFile", { filePath: "new/deep/a.ts", content: "export {};\n" });
    expect(out).toMatchObject({ path: "new/deep/a.ts", type: "file", replaced: false, bytes: 11, createdDirectories: ["new", "new/deep"] });
    expect(out.hash).toMatch(/^[0-9a-f]{16}$/);
    expect(await readFile(at("new/deep/a.ts"), "utf8")).toBe("export {};\n");
  });

  it("creates an empty file and a directory", async () => {
    expect(await d.data("createFile", { filePath: "empty.txt" })).toMatchObject({ bytes: 0, createdDirectories: [] });
    expect(await d.data("createFile", { filePath: "dir/sub", isDirectory: true })).toEqual({
      path: "dir/sub",
      type: "directory",
      replaced: false,
      createdDirectories: ["dir"],
    });
    expect((await stat(at("dir/sub"))).isDirectory()).toBe(true);
  });

  it("refuses an existing file unless overwrite, and then keeps its mode", async () => {
    await put("exists.sh", "old\n");
    await chmod(at("exists.sh"), 0o755);
    expect((await d.failure("createFile", { filePath: "exists.sh", content: "new\n" })).code).toBe("file_exists");
    expect(await readFile(at("exists.sh"), "utf8")).toBe("old\n");
    expect(await d.data("createFile", { filePath: "exists.sh", content: "new\n", overwrite: true })).toMatchObject({ replaced: true });
    expect(await readFile(at("exists.sh"), "utf8")).toBe("new\n");
    expect((await stat(at("exists.sh"))).mode & 0o777).toBe(0o755);
  });

  it("fails clearly: existing directory, content for a directory, a file in the way, a hard link, outside", async () => {
    expect((await d.failure("createFile", { filePath: "dir", isDirectory: true })).code).toBe("file_exists");
    expect((await d.failure("createFile", { filePath: "x", isDirectory: true, content: "no" })).code).toBe("invalid_arguments");
    expect((await d.failure("createFile", { filePath: "exists.sh/inner.txt", content: "x" })).code).toBe("not_a_directory");
    await link(join(base, "outside", "secret.txt"), at("hard.txt"));
    expect((await d.failure("createFile", { filePath: "hard.txt", content: "x", overwrite: true })).code).toBe("invalid_path");
    expect(await readFile(join(base, "outside", "secret.txt"), "utf8")).toBe("secret\n");
    expect((await d.failure("createFile", { filePath: "../outside/new.txt", content: "x" })).code).toBe("outside_workspace");
    expect(await readdir(join(base, "outside"))).toEqual(["secret.txt"]);
  });
});

describe("deleteFile", () => {
  it("moves a file to the trash and says how to restore it; renameFile restores it", async () => {
    await put("gone.txt", "keep me\n");
    const out = await d.data<{ path: string; trashPath: string; restore: string; type: string }>("deleteFile", { filePath: "gone.txt" });
    expect(out.path).toBe("gone.txt");
    expect(out.type).toBe("file");
    expect(out.trashPath).toMatch(/^\.claude-ide-bridge\/trash\/\d{8}T\d{6}Z-[0-9a-f]{6}\/gone\.txt$/);
    expect(out.restore).toBe(`renameFile with oldPath "${out.trashPath}" and newPath "gone.txt"`);
    expect(await exists(at("gone.txt"))).toBe(false);
    expect(await readFile(join(at(out.trashPath), "..", "restore.json"), "utf8")).toMatch(/"originalPath": "gone.txt"/);
    expect(await readFile(at(".claude-ide-bridge/.gitignore"), "utf8")).toMatch(/^\*$/m);
    await d.data("renameFile", { oldPath: out.trashPath, newPath: "gone.txt" });
    expect(await readFile(at("gone.txt"), "utf8")).toBe("keep me\n");
  });

  it("deletes a symlink itself, never its target", async () => {
    await symlink(join(base, "outside", "secret.txt"), at("link-out"));
    expect(await d.data("deleteFile", { filePath: "link-out", useTrash: false })).toEqual({ path: "link-out", type: "symlink" });
    expect(await exists(at("link-out"))).toBe(false);
    expect(await readFile(join(base, "outside", "secret.txt"), "utf8")).toBe("secret\n");
    await symlink(join(base, "outside"), at("dir-link"));
    const trashed = await d.data<{ trashPath: string; type: string }>("deleteFile", { filePath: "dir-link" });
    expect(trashed.type).toBe("symlink");
    expect(await readlink(at(trashed.trashPath))).toBe(join(base, "outside"));
    expect(await readdir(join(base, "outside"))).toEqual(["secret.txt"]);
  });

  it("deletes a directory only when asked to recursively, for good with useTrash: false", async () => {
    await put("tree/a/b.txt", "b");
    expect((await d.failure("deleteFile", { filePath: "tree", useTrash: false })).suggestion).toMatch(/recursive: true/);
    expect(await d.data("deleteFile", { filePath: "tree", recursive: true, useTrash: false })).toEqual({ path: "tree", type: "directory" });
    expect(await exists(at("tree"))).toBe(false);
    await mkdir(at("empty-dir"));
    expect(await d.data("deleteFile", { filePath: "empty-dir", useTrash: false })).toEqual({ path: "empty-dir", type: "directory" });
  });

  it("empties the trash for good, and refuses missing paths, the root, .git and outside", async () => {
    expect(await d.data("deleteFile", { filePath: ".claude-ide-bridge/trash", recursive: true })).toEqual({
      path: ".claude-ide-bridge/trash",
      type: "directory",
    });
    expect((await d.failure("deleteFile", { filePath: "nope.txt" })).code).toBe("file_not_found");
    expect((await d.failure("deleteFile", { filePath: "." })).code).toBe("invalid_path");
    expect((await d.failure("deleteFile", { filePath: root, recursive: true, useTrash: false })).code).toBe("outside_workspace");
    await put(".git/HEAD", "ref\n");
    expect((await d.failure("deleteFile", { filePath: ".git", recursive: true, useTrash: false })).code).toBe("permission_denied");
    expect((await d.failure("deleteFile", { filePath: "../outside/secret.txt", useTrash: false })).code).toBe("outside_workspace");
    expect(await readFile(join(base, "outside", "secret.txt"), "utf8")).toBe("secret\n");
  });
});

describe("renameFile", () => {
  it("moves a file into new directories and says nothing else was updated", async () => {
    await put("old-name.ts", "x\n");
    const out = await d.data("renameFile", { oldPath: "old-name.ts", newPath: "moved/here/new-name.ts" });
    expect(out).toEqual({
      from: "old-name.ts",
      to: "moved/here/new-name.ts",
      type: "file",
      replaced: false,
      note: "Only the file moved: imports and references to old-name.ts were not updated (searchWorkspace finds them).",
    });
    expect(await readFile(at("moved/here/new-name.ts"), "utf8")).toBe("x\n");
  });

  it("replaces an existing file only with overwrite, never a directory", async () => {
    await put("r1.txt", "one");
    await put("r2.txt", "two");
    expect((await d.failure("renameFile", { oldPath: "r1.txt", newPath: "r2.txt" })).code).toBe("file_exists");
    expect(await d.data("renameFile", { oldPath: "r1.txt", newPath: "r2.txt", overwrite: true })).toMatchObject({ replaced: true });
    expect(await readFile(at("r2.txt"), "utf8")).toBe("one");
    expect((await d.failure("renameFile", { oldPath: "r2.txt", newPath: "moved", overwrite: true })).code).toBe("file_exists");
  });

  it("moves symlinks as links, and refuses missing sources, moves into itself and outside", async () => {
    await symlink("r2.txt", at("rel-link"));
    await d.data("renameFile", { oldPath: "rel-link", newPath: "moved/rel-link" });
    expect(await readlink(at("moved/rel-link"))).toBe("r2.txt");
    expect((await d.failure("renameFile", { oldPath: "nope", newPath: "x" })).code).toBe("file_not_found");
    expect((await d.failure("renameFile", { oldPath: "moved", newPath: "moved/inside/again" })).code).toBe("invalid_arguments");
    expect((await d.failure("renameFile", { oldPath: "r2.txt", newPath: "../outside/r2.txt" })).code).toBe("outside_workspace");
    expect((await d.failure("renameFile", { oldPath: "../outside/secret.txt", newPath: "stolen.txt" })).code).toBe("outside_workspace");
    expect(await readdir(join(base, "outside"))).toEqual(["secret.txt"]);
  });
});

describe("getBufferContent", () => {
  it("returns the text as saved, whole or a range, with hash and mtime", async () => {
    await put("buf.ts", "one\ntwo\nthree\n");
    const mtime = Math.trunc((await stat(at("buf.ts"))).mtimeMs);
    const whole = await d.text("getBufferContent", { filePath: "buf.ts" });
    expect(whole).toMatch(new RegExp(`^one\\ntwo\\nthree\\n\\[buf\\.ts as saved on disk: 3 lines, hash [0-9a-f]{16}, mtime ${mtime}\\]$`));
    expect(await d.text("getBufferContent", { filePath: "buf.ts", startLine: 2, endLine: 2 })).toMatch(
      /^two\n\[buf\.ts as saved on disk: lines 2-2 of 3, hash/,
    );
  });

  it("says what the text does not show: CRLF, a BOM, no final newline", async () => {
    await put("crlf.txt", "\uFEFFa\r\nb");
    const out = await d.text("getBufferContent", { filePath: "crlf.txt" });
    expect(out).toMatch(
      /^a\nb\n\[crlf\.txt as saved on disk: 2 lines, hash \w+, mtime \d+, CRLF line endings \(shown as \\n; edits keep CRLF\), UTF-8 BOM, no newline at the end\]$/,
    );
  });

  it("fails on binaries, invalid UTF-8, missing files, directories, bad ranges and outside", async () => {
    await put("bin.dat", new Uint8Array([1, 0, 2]));
    await put("latin1.txt", new Uint8Array([0x63, 0x61, 0x66, 0xe9]));
    expect((await d.failure("getBufferContent", { filePath: "bin.dat" })).code).toBe("binary_file");
    expect((await d.failure("getBufferContent", { filePath: "latin1.txt" })).error).toMatch(/not valid UTF-8/);
    expect((await d.failure("getBufferContent", { filePath: "nope.ts" })).code).toBe("file_not_found");
    expect((await d.failure("getBufferContent", { filePath: "moved" })).code).toBe("not_a_file");
    expect((await d.failure("getBufferContent", { filePath: "buf.ts", startLine: 9 })).code).toBe("invalid_arguments");
    expect((await d.failure("getBufferContent", { filePath: "../outside/secret.txt" })).code).toBe("outside_workspace");
  });
});
