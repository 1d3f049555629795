// The open documents' staleness check on a real filesystem: a file unchanged since it was read is
// known from its lstat alone, and every way a save can change it is still seen by the next sync:
// a rename-over save (new inode, even with the same size and mtime), an in-place rewrite, and a
// same-size rewrite within the same mtime tick as the read (the key of a file that recent is not
// trusted, so it is read again).
import { mkdtemp, readFile, realpath, rename, rm, stat, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNodeRuntime } from "../../../runtime/node.ts";
import type { LspConnection } from "../../../src/ports/lsp.ts";
import { OpenDocuments } from "../../../src/lsp/open-documents.ts";
import type { WorkspacePath } from "../../../src/security/jail/workspace-path.ts";

const runtime = createNodeRuntime();
let root: string;

beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), "open-docs-")));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A server that only records what it is told; the documents under test, with their reads counted. */
function documentsOver(): { docs: OpenDocuments; sent: string[]; reads: () => number } {
  const sent: string[] = [];
  const connection: Pick<LspConnection, "notify"> = {
    notify: async (method, params) => {
      const changes = (params as { contentChanges?: { text: string }[] }).contentChanges;
      const opened = (params as { textDocument: { text?: string } }).textDocument.text;
      sent.push(`${method} ${changes?.[0]?.text ?? opened ?? ""}`);
    },
  };
  let reads = 0;
  const docs = new OpenDocuments(connection as LspConnection, {
    readText: async (path) => {
      reads += 1;
      return readFile(path, "utf8");
    },
    statFile: (path) => runtime.fs.lstat(path),
  });
  return { docs, sent, reads: () => reads };
}

/** Writes `text` at `name`, its mtime set `ageMs` in the past (a file saved a while ago, or just now). */
async function fileAt(name: string, text: string, ageMs: number): Promise<WorkspacePath> {
  const path = join(root, name);
  await writeFile(path, text);
  const when = new Date(Date.now() - ageMs);
  await utimes(path, when, when);
  return path as WorkspacePath;
}

describe("OpenDocuments' staleness check", () => {
  it("does not read a quiet file again while its key is the same", async () => {
    const { docs, sent, reads } = documentsOver();
    const path = await fileAt("quiet.ts", "const a = 1;\n", 60_000);
    await docs.sync(path, "typescript");
    const again = await docs.sync(path, "typescript");
    expect(again.changed).toBe(false);
    expect(reads()).toBe(1);
    expect(sent).toEqual(["textDocument/didOpen const a = 1;\n"]);
  });

  it("sees a rename-over save with the same size and mtime (a new inode)", async () => {
    const { docs, sent, reads } = documentsOver();
    const path = await fileAt("saved.ts", "const a = 1;\n", 60_000);
    const before = await stat(path);
    await docs.sync(path, "typescript");
    await writeFile(`${path}.tmp`, "const b = 2;\n");
    await utimes(`${path}.tmp`, before.atime, before.mtime);
    await rename(`${path}.tmp`, path);
    expect((await stat(path)).mtimeMs).toBe(before.mtimeMs);
    const after = await docs.sync(path, "typescript");
    expect(after.changed).toBe(true);
    expect(reads()).toBe(2);
    expect(sent.at(-1)).toBe("textDocument/didChange const b = 2;\n");
  });

  it("sees an in-place rewrite of a quiet file", async () => {
    const { docs, sent } = documentsOver();
    const path = await fileAt("inplace.ts", "const a = 1;\n", 60_000);
    await docs.sync(path, "typescript");
    await writeFile(path, "const a = 9;\n");
    expect((await docs.sync(path, "typescript")).changed).toBe(true);
    expect(sent.at(-1)).toBe("textDocument/didChange const a = 9;\n");
  });

  it("reads a just-written file on every sync: a same-size rewrite in the same mtime tick is still seen", async () => {
    const { docs, sent, reads } = documentsOver();
    const path = await fileAt("racy.ts", "const a = 1;\n", 0);
    const first = await stat(path);
    await docs.sync(path, "typescript");
    // The same inode, size and mtime, new bytes: what a second write within one mtime tick leaves.
    await writeFile(path, "const a = 2;\n");
    await utimes(path, first.atime, first.mtime);
    const now = await stat(path);
    expect([now.ino, now.size, now.mtimeMs]).toEqual([first.ino, first.size, first.mtimeMs]);
    expect((await docs.sync(path, "typescript")).changed).toBe(true);
    expect(reads()).toBe(2);
    expect(sent.at(-1)).toBe("textDocument/didChange const a = 2;\n");
  });

  it("reads the file after a proposed content, and forgets a file that is gone", async () => {
    const { docs, sent } = documentsOver();
    const path = await fileAt("proposed.ts", "const a = 1;\n", 60_000);
    await docs.sync(path, "typescript");
    await docs.sync(path, "typescript", { text: "const a = 'proposed';\n" });
    expect((await docs.sync(path, "typescript")).changed).toBe(true);
    expect(sent.at(-1)).toBe("textDocument/didChange const a = 1;\n");
    await rm(path);
    await expect(docs.sync(path, "typescript")).rejects.toThrow();
    expect(docs.get(path)).toBeUndefined();
  });

  it("opening a file as it is on disk leaves the other open documents current; proposed content does not", async () => {
    const { docs } = documentsOver();
    const first = await fileAt("first.py", "a = 1\n", 60_000);
    const second = await fileAt("second.py", "b = 2\n", 60_000);
    const third = await fileAt("third.py", "c = 3\n", 60_000);
    const { doc } = await docs.sync(first, "python");
    await docs.sync(second, "python");
    // The server reads unopened files from disk: opening one shows it nothing new.
    expect(doc.syncedAt).toBe(docs.epoch);
    await docs.sync(third, "python", { text: "c = 'proposed'\n" });
    expect(doc.syncedAt).toBeLessThan(docs.epoch);
  });
});
