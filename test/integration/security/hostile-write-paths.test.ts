// Hostile paths against every tool that writes or reads through the jail: traversal, encodings,
// file URIs, symlink chains, dangling and looping links, hard links, unicode look-alikes,
// backslashes, NUL bytes. Each path goes to each tool; afterwards the outside tree must be exactly
// as it was (contents, names, modes, link targets) and no answer may carry an outside secret:
// zero escapes. Paths that merely look odd (a literal "%2e%2e" directory) may be created, inside.
import { chmod, link, lstat, mkdir, mkdtemp, readdir, readFile, readlink, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dispatcher, type Dispatcher } from "../../helpers/tool-dispatch.ts";

const SECRET = "outside secret";
let base: string;
let root: string;
let outside: string;
let d: Dispatcher;
let before: Map<string, string>;

/**
 * Every entry below `dir`: type, mode and content or link target. Not the link count: removing
 * the workspace's own name of a hard-linked file (deleteFile, a rename over it) is allowed, and
 * changes nothing of the file outside.
 */
async function snapshot(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const visit = async (path: string, rel: string) => {
    const st = await lstat(path);
    if (st.isSymbolicLink()) out.set(rel, `link ${await readlink(path)}`);
    else if (st.isDirectory()) {
      out.set(rel, `dir ${st.mode & 0o7777}`);
      for (const name of (await readdir(path)).sort()) await visit(join(path, name), `${rel}/${name}`);
    } else out.set(rel, `file ${st.mode & 0o7777} ${await readFile(path, "utf8")}`);
  };
  await visit(dir, "");
  return out;
}

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "cib-hostile-")));
  root = join(base, "ws");
  outside = join(base, "outside");
  await mkdir(join(outside, "dir"), { recursive: true });
  await writeFile(join(outside, "secret.txt"), `${SECRET}\n`);
  await writeFile(join(outside, "dir", "secret.txt"), `${SECRET} 2\n`);
  await writeFile(join(base, "sibling.txt"), `${SECRET} sibling\n`);
  await mkdir(join(root, "sub"), { recursive: true });
  await writeFile(join(root, "victim.txt"), "victim\n");
  await symlink(outside, join(root, "out-dir"));
  await symlink(join(outside, "secret.txt"), join(root, "out-file"));
  await symlink(join(root, "chain2"), join(root, "chain1"));
  await symlink(join(root, "chain3"), join(root, "chain2"));
  await symlink(outside, join(root, "chain3"));
  await symlink("../outside", join(root, "rel-out"));
  await symlink(join(outside, "missing.txt"), join(root, "dangling-out"));
  await symlink(join(root, "loop-b"), join(root, "loop-a"));
  await symlink(join(root, "loop-a"), join(root, "loop-b"));
  await symlink("../../outside", join(root, "sub", "up"));
  await symlink(root, join(root, "sub", "to-root"));
  await link(join(outside, "secret.txt"), join(root, "hard.txt"));
  await chmod(join(outside, "secret.txt"), 0o640);
  before = await snapshot(outside);
  d = await dispatcher(root);
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

const HOSTILE: readonly string[] = [
  "../outside/secret.txt",
  "../../etc/passwd",
  "sub/../../outside/secret.txt",
  "sub/././../../outside/secret.txt",
  "/etc/passwd",
  "//etc/passwd",
  "/",
  "OUTSIDE_ABS",
  "ROOT/../outside/secret.txt",
  "ROOT/./../outside/secret.txt",
  "ROOT/../sibling.txt",
  "%2e%2e/outside/secret.txt",
  "..%2foutside%2fsecret.txt",
  "%2E%2E%2F%2E%2E%2Fsibling.txt",
  "FILE_URI_OUTSIDE",
  "FILE_URI_ENCODED_DOTS",
  "FILE_URI_ENCODED_SLASH",
  "FILE_URI_HOST",
  "out-dir/secret.txt",
  "out-dir/new.txt",
  "out-dir//dir/secret.txt",
  "out-dir/../outside/secret.txt",
  "out-dir/..",
  "out-file",
  "chain1/secret.txt",
  "chain1/new.txt",
  "chain1/dir/secret.txt",
  "rel-out/secret.txt",
  "rel-out/new.txt",
  "dangling-out",
  "loop-a",
  "loop-a/x",
  "hard.txt",
  "sub/up/secret.txt",
  "sub/up/new.txt",
  "sub/to-root/../outside/secret.txt",
  "sub/../out-dir/secret.txt",
  "\u2025/outside/secret.txt",
  "\uff0e\uff0e/outside/secret.txt",
  "..\u2215outside\u2215secret.txt",
  "..\\outside\\secret.txt",
  "sub\\..\\..\\outside\\secret.txt",
  "sub/\u0000../outside/secret.txt",
  "victim.txt\u0000../../outside/secret.txt",
  "~/secret.txt",
  "",
  ".",
  "OUT-DIR/secret.txt",
  "\u202e../outside/secret.txt",
  `sub/${"a".repeat(5000)}`,
];

function spell(path: string): string {
  switch (path) {
    case "OUTSIDE_ABS":
      return join(outside, "secret.txt");
    case "FILE_URI_OUTSIDE":
      return `file://${outside}/secret.txt`;
    case "FILE_URI_ENCODED_DOTS":
      return `file://${root}/%2e%2e/outside/secret.txt`;
    case "FILE_URI_ENCODED_SLASH":
      return `file://${root}/..%2Foutside%2Fsecret.txt`;
    case "FILE_URI_HOST":
      return `file://evil.example${outside}/secret.txt`;
    default:
      return path.replace(/^ROOT/, root);
  }
}

/** Every tool that takes a path, with arguments that would write or read through it. */
const CALLS: readonly [string, (path: string) => Record<string, unknown>][] = [
  ["createFile", (p) => ({ filePath: p, content: "pwned\n", overwrite: true })],
  ["createFile", (p) => ({ filePath: p, isDirectory: true })],
  ["editText", (p) => ({ filePath: p, edits: [{ type: "insert", line: 1, text: "pwned" }] })],
  ["replaceBlock", (p) => ({ filePath: p, oldContent: SECRET, newContent: "pwned" })],
  ["deleteFile", (p) => ({ filePath: p, recursive: true, useTrash: false })],
  ["deleteFile", (p) => ({ filePath: p, recursive: true })],
  ["renameFile", (p) => ({ oldPath: p, newPath: "stolen.txt", overwrite: true })],
  ["renameFile", (p) => ({ oldPath: "victim.txt", newPath: p, overwrite: true })],
  ["getBufferContent", (p) => ({ filePath: p })],
  ["previewEdit", (p) => ({ filePath: p, content: "x" })],
  ["findRelatedTests", (p) => ({ filePath: p })],
  ["searchWorkspace", (p) => ({ pattern: "secret", path: p })],
  ["searchAndReplace", (p) => ({ pattern: "secret", replacement: "pwned", path: p })],
  ["findFiles", (p) => ({ pattern: "*", path: p })],
  ["getFileTree", (p) => ({ path: p })],
  ["watchFiles", (p) => ({ path: p })],
];

describe("hostile paths", () => {
  // First, while every link of the fixture is still as made.
  it("refuses the plainly outside ones with the jail's codes", async () => {
    const codes = new Set([
      "outside_workspace",
      "invalid_path",
      "file_not_found",
      "not_a_directory",
      "not_a_file",
      "invalid_arguments",
      "permission_denied",
    ]);
    for (const raw of [
      "../outside/secret.txt",
      "OUTSIDE_ABS",
      "FILE_URI_OUTSIDE",
      "FILE_URI_ENCODED_DOTS",
      "out-dir/secret.txt",
      "chain1/secret.txt",
      "rel-out/new.txt",
      "dangling-out",
      "loop-a",
      "hard.txt",
      "sub/up/new.txt",
      "sub/to-root/../outside/secret.txt",
    ]) {
      for (const tool of ["createFile", "editText", "getBufferContent"]) {
        const args =
          tool === "createFile"
            ? { filePath: spell(raw), content: "x", overwrite: true }
            : tool === "editText"
              ? { filePath: spell(raw), edits: [{ type: "delete", line: 1 }] }
              : { filePath: spell(raw) };
        const failure = await d.failure(tool, args);
        expect(codes.has(failure.code), `${tool} ${raw}: ${failure.code}`).toBe(true);
      }
    }
  });

  it(`${HOSTILE.length} paths x ${CALLS.length} tools: zero escapes`, { timeout: 120_000 }, async () => {
    expect(HOSTILE.length).toBeGreaterThanOrEqual(40);
    const leaks: string[] = [];
    let refused = 0;
    for (const raw of HOSTILE) {
      const path = spell(raw);
      for (const [tool, args] of CALLS) {
        if (tool === "renameFile") await writeFile(join(root, "victim.txt"), "victim\n");
        const result = await d.call(tool, args(path));
        const text = result.content.map((c) => c.text ?? "").join("\n");
        if (text.includes(SECRET)) leaks.push(`${tool} ${JSON.stringify(raw)}: ${text.slice(0, 120)}`);
        if (result.isError) refused++;
        // Put the workspace back for the next call: only what is outside must never change.
        await rm(join(root, "stolen.txt"), { force: true });
      }
      await transactionThrough(path, leaks);
    }
    expect(leaks).toEqual([]);
    expect(await snapshot(outside)).toEqual(before);
    expect(await readFile(join(base, "sibling.txt"), "utf8")).toBe(`${SECRET} sibling\n`);
    expect((await readdir(base)).sort()).toEqual(["outside", "sibling.txt", "ws"]);
    expect(refused).toBeGreaterThan(HOSTILE.length * CALLS.length * 0.8);
  });
});

async function transactionThrough(path: string, leaks: string[]): Promise<void> {
  const { transactionId } = await d.data<{ transactionId: string }>("beginTransaction");
  const staged = await d.call("stageEdit", { transactionId, filePath: path, content: "pwned\n" });
  if (staged.content.some((c) => c.text?.includes(SECRET))) leaks.push(`stageEdit ${JSON.stringify(path)}`);
  const committed = await d.call("commitTransaction", { transactionId });
  if (committed.content.some((c) => c.text?.includes(SECRET))) leaks.push(`commitTransaction ${JSON.stringify(path)}`);
}
