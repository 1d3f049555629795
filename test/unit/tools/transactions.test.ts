// Transactions: staged edits of several files written all at once or not at all, owned by their
// session, dropped when idle; and ctx.fs.commit putting files back when it fails half-way. Two
// failures are injected through the Runtime port, because as root (CI) no real one can be made on
// cue: a directory refusing writes (EACCES), and a rename failing during the swap.
import { chmod, mkdir, mkdtemp, readFile, readdir, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNodeFs } from "../../../runtime/shared/fs.ts";
import { createNodeRuntime } from "../../../runtime/node.ts";
import { RuntimeError } from "../../../src/ports/errors.ts";
import type { DirHandle, Fs } from "../../../src/ports/fs.ts";
import { createWorkspace } from "../../../src/security/jail/workspace-jail.ts";
import commitTransaction from "../../../src/tools/edit/commit-transaction.ts";
import stageEdit from "../../../src/tools/edit/stage-edit.ts";
import { TRANSACTION_IDLE_MS, TransactionStore } from "../../../src/services/edit-transactions/transaction-store.ts";
import { contentHash, identityOf } from "../../../src/workspace/file-version.ts";
import { createWorkspaceFs } from "../../../src/workspace/workspace-fs.ts";
import { dispatcher, type Dispatcher } from "../../helpers/tool-dispatch.ts";
import { makeToolContext } from "../../helpers/tool-context.ts";

let base: string;
let root: string;
let d: Dispatcher;

const at = (rel: string) => join(root, rel);
const snapshot = async (names: string[]) => Promise.all(names.map((n) => readFile(at(n)).catch(() => undefined)));

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "cib-tx-")));
  root = join(base, "ws");
  await mkdir(join(root, "locked"), { recursive: true });
  d = await dispatcher(root);
});

afterAll(async () => {
  await chmod(join(root, "locked"), 0o755).catch(() => undefined);
  await rm(base, { recursive: true, force: true });
});

async function begin(): Promise<string> {
  return (await d.data<{ transactionId: string }>("beginTransaction")).transactionId;
}

describe("a transaction", () => {
  it("stages edits of several files (building on each other), writes nothing until commit, then all", async () => {
    await writeFile(at("one.txt"), "a\nb\n");
    await writeFile(at("two.txt"), "x\r\ny\r\n");
    const tx = await begin();
    expect(await d.text("stageEdit", { transactionId: tx, filePath: "one.txt", oldContent: "a", newContent: "A" })).toMatch(
      /^Staged in tx-\w+ \(1 file\); nothing is written until commitTransaction\.\nWould edit one\.txt \(\+1 -1\)/,
    );
    const second = await d.text("stageEdit", { transactionId: tx, filePath: "one.txt", edits: [{ type: "insert", line: 3, text: "c" }] });
    expect(second).toMatch(/\(\+2 -1\)/);
    await d.text("stageEdit", { transactionId: tx, filePath: "two.txt", content: "X\nY\n" });
    await d.text("stageEdit", { transactionId: tx, filePath: "sub/three.txt".replace("sub/", ""), content: "new file\n" });
    expect(await readFile(at("one.txt"), "utf8")).toBe("a\nb\n");
    const out = await d.text("commitTransaction", { transactionId: tx });
    expect(out).toMatch(/^Committed tx-\w+: 3 files written together\.\nEdited one\.txt \(\+2 -1\)/);
    expect(out).toMatch(/Created three\.txt \(\+1 -0\)/);
    expect(await readFile(at("one.txt"), "utf8")).toBe("A\nb\nc\n");
    expect(await readFile(at("two.txt"), "utf8")).toBe("X\r\nY\r\n");
    expect(await readFile(at("three.txt"), "utf8")).toBe("new file\n");
    expect((await d.failure("commitTransaction", { transactionId: tx })).code).toBe("transaction_not_found");
  });

  it("changes nothing when a file changed on disk after it was staged", async () => {
    await writeFile(at("p.txt"), "p\n");
    await writeFile(at("q.txt"), "q\n");
    const tx = await begin();
    await d.text("stageEdit", { transactionId: tx, filePath: "p.txt", content: "P\n" });
    await d.text("stageEdit", { transactionId: tx, filePath: "q.txt", content: "Q\n" });
    await writeFile(at("q.txt"), "someone else\n");
    const before = await snapshot(["p.txt", "q.txt"]);
    const failure = await d.failure("commitTransaction", { transactionId: tx });
    expect(failure).toMatchObject({ code: "file_changed", error: "q.txt changed on disk since it was read; nothing was written" });
    expect(await snapshot(["p.txt", "q.txt"])).toEqual(before);
    expect((await readdir(root)).filter((n) => n.endsWith(".tmp"))).toEqual([]);
  });

  it("changes nothing when a staged file's directory went away", async () => {
    await writeFile(at("k.txt"), "k\n");
    await mkdir(at("doomed"));
    await writeFile(at("doomed/m.txt"), "m\n");
    const tx = await begin();
    await d.text("stageEdit", { transactionId: tx, filePath: "k.txt", content: "K\n" });
    await d.text("stageEdit", { transactionId: tx, filePath: "doomed/m.txt", content: "M\n" });
    await rm(at("doomed"), { recursive: true });
    expect((await d.failure("commitTransaction", { transactionId: tx })).code).toBe("file_not_found");
    expect(await readFile(at("k.txt"), "utf8")).toBe("k\n");
  });

  // A read-only directory does not stop root (CI runs as root), so the write fails where the
  // kernel would say EACCES: in the directory handle of the Runtime port, for one directory only.
  it("changes nothing when one file cannot be written (its directory refuses writes)", async () => {
    await writeFile(at("r.txt"), "r\n");
    await writeFile(at("locked/s.txt"), "s\n");
    const runtime = { ...createNodeRuntime(), fs: refusingWritesIn(createNodeFs(), at("locked")) };
    const refused = await dispatcher(root, { runtime });
    const tx = (await refused.data<{ transactionId: string }>("beginTransaction")).transactionId;
    await refused.text("stageEdit", { transactionId: tx, filePath: "r.txt", content: "R\n" });
    await refused.text("stageEdit", { transactionId: tx, filePath: "new-beside.txt", content: "N\n" });
    await refused.text("stageEdit", { transactionId: tx, filePath: "locked/s.txt", content: "S\n" });
    const before = await snapshot(["r.txt", "new-beside.txt", "locked/s.txt"]);
    expect((await refused.failure("commitTransaction", { transactionId: tx })).code).toBe("permission_denied");
    expect(await snapshot(["r.txt", "new-beside.txt", "locked/s.txt"])).toEqual(before);
    expect(before[1]).toBeUndefined();
    expect((await readdir(root)).filter((n) => n.endsWith(".tmp"))).toEqual([]);
  });

  it("changes nothing when a staged file was replaced by a directory", async () => {
    await writeFile(at("p.txt"), "p\n");
    await writeFile(at("q.txt"), "q\n");
    const tx = await begin();
    await d.text("stageEdit", { transactionId: tx, filePath: "p.txt", content: "P\n" });
    await d.text("stageEdit", { transactionId: tx, filePath: "q.txt", content: "Q\n" });
    await rm(at("q.txt"));
    await mkdir(at("q.txt"));
    expect((await d.failure("commitTransaction", { transactionId: tx })).code).toBe("file_changed");
    expect(await readFile(at("p.txt"), "utf8")).toBe("p\n");
    expect(await readdir(at("q.txt"))).toEqual([]);
  });

  it("changes nothing when a file to create appeared meanwhile", async () => {
    await writeFile(at("t.txt"), "t\n");
    const tx = await begin();
    await d.text("stageEdit", { transactionId: tx, filePath: "t.txt", content: "T\n" });
    await d.text("stageEdit", { transactionId: tx, filePath: "late.txt", content: "mine\n" });
    await writeFile(at("late.txt"), "theirs\n");
    expect((await d.failure("commitTransaction", { transactionId: tx })).code).toBe("file_exists");
    expect(await snapshot(["t.txt", "late.txt"])).toEqual([Buffer.from("t\n"), Buffer.from("theirs\n")]);
  });

  it("rolls back: staged edits are dropped and no file changes", async () => {
    await writeFile(at("u.txt"), "u\n");
    const tx = await begin();
    await d.text("stageEdit", { transactionId: tx, filePath: "u.txt", content: "U\n" });
    expect(await d.data("rollbackTransaction", { transactionId: tx })).toEqual({ transactionId: tx, discarded: ["u.txt"] });
    expect(await readFile(at("u.txt"), "utf8")).toBe("u\n");
    expect((await d.failure("stageEdit", { transactionId: tx, filePath: "u.txt", content: "x" })).code).toBe("transaction_not_found");
  });

  it("refuses bad stages without changing what is staged", async () => {
    await writeFile(at("v.txt"), "v\n");
    const tx = await begin();
    await d.text("stageEdit", { transactionId: tx, filePath: "v.txt", content: "V\n" });
    expect((await d.failure("stageEdit", { transactionId: tx, filePath: "v.txt", oldContent: "nope", newContent: "x" })).code).toBe(
      "match_not_found",
    );
    expect((await d.failure("stageEdit", { transactionId: tx, filePath: "missing.txt", oldContent: "a", newContent: "b" })).code).toBe(
      "file_not_found",
    );
    expect(
      (await d.failure("stageEdit", { transactionId: tx, filePath: "w.txt", edits: [{ type: "delete", line: 1 }] })).suggestion,
    ).toMatch(/content/);
    expect(
      (await d.failure("stageEdit", { transactionId: tx, filePath: "v.txt", expectedHash: "ffffffffffffffff", content: "x" })).code,
    ).toBe("file_changed");
    await d.text("commitTransaction", { transactionId: tx });
    expect(await readFile(at("v.txt"), "utf8")).toBe("V\n");
  });

  it("belongs to its session: another session cannot see, stage into or commit it", async () => {
    await writeFile(at("own.txt"), "own\n");
    const mine = await makeToolContext(root, { session: "mine" });
    const theirs = { ...mine, session: "theirs" };
    const begin = (await import("../../../src/tools/edit/begin-transaction.ts")).default;
    const { transactionId } = (await begin.handlers.headless!({}, mine)) as { transactionId: string };
    await stageEdit.handlers.headless?.({ transactionId, filePath: "own.txt", content: "OWN\n" }, mine);
    await expect(commitTransaction.handlers.headless?.({ transactionId }, theirs)).rejects.toMatchObject({ code: "transaction_not_found" });
    await expect(stageEdit.handlers.headless?.({ transactionId, filePath: "own.txt", content: "x" }, theirs)).rejects.toMatchObject({
      code: "transaction_not_found",
    });
    await commitTransaction.handlers.headless?.({ transactionId }, mine);
    expect(await readFile(at("own.txt"), "utf8")).toBe("OWN\n");
  });
});

/** The real Fs, except that writing a file into `dir` fails with EACCES, as a read-only directory would for a user. */
function refusingWritesIn(real: Fs, dir: string): Fs {
  const wrap = (handle: DirHandle, path: string): DirHandle => ({
    ...handle,
    openDirectory: async (name) => wrap(await handle.openDirectory(name), `${path}/${name}`),
    writeFile: async (name, data, opts) => {
      if (path === dir) throw new RuntimeError("EACCES", `${path}/${name}: permission denied (injected)`);
      return handle.writeFile(name, data, opts);
    },
  });
  return { ...real, openDirectory: async (path) => wrap(await real.openDirectory(path), path) };
}

describe("TransactionStore", () => {
  it("drops a transaction idle for longer than the limit, and caps open ones per session", () => {
    let now = 0;
    const store = new TransactionStore(() => now);
    const tx = store.begin("s");
    now += TRANSACTION_IDLE_MS;
    expect(store.get("s", tx.id)).toBe(tx);
    now += TRANSACTION_IDLE_MS + 1;
    expect(() => store.get("s", tx.id)).toThrow(/expired after 15 idle minutes/);
    for (let i = 0; i < 4; i++) store.begin("s");
    expect(() => store.begin("s")).toThrow(/already has 4 open transactions/);
    expect(store.begin("other").session).toBe("other");
  });
});

describe("ctx.fs.commit", () => {
  it("puts back every file already swapped when a later rename fails", async () => {
    await writeFile(at("f1.txt"), "one\n");
    await writeFile(at("f2.txt"), "two\n");
    await writeFile(at("f3.txt"), "three\n");
    const real = createNodeFs();
    let renames = 0;
    const failing: Fs = { ...real, openDirectory: async (path) => failThirdRename(await real.openDirectory(path)) };
    const inner = new WeakMap<DirHandle, DirHandle>();
    function failThirdRename(dir: DirHandle): DirHandle {
      const wrapped: DirHandle = {
        ...dir,
        openDirectory: async (name) => failThirdRename(await dir.openDirectory(name)),
        rename: async (name, target, targetName) => {
          if (++renames === 3) throw new RuntimeError("OTHER", "injected rename failure");
          return dir.rename(name, inner.get(target) ?? target, targetName);
        },
      };
      inner.set(wrapped, dir);
      return wrapped;
    }
    const fs = createWorkspaceFs(failing, await createWorkspace(real, { root }));
    const writes = await Promise.all(
      ["f1.txt", "f2.txt", "f3.txt"].map(async (name) => {
        const read = await fs.readBytes(name, { maxBytes: 100 });
        return {
          label: name,
          path: read.path,
          data: new TextEncoder().encode(`${name} changed\n`),
          expect: { identity: identityOf(read.stat), original: read.bytes },
        };
      }),
    );
    const before = await snapshot(["f1.txt", "f2.txt", "f3.txt"]);
    await expect(fs.commit(writes)).rejects.toThrow(/injected rename failure/);
    expect(await snapshot(["f1.txt", "f2.txt", "f3.txt"])).toEqual(before);
    expect((await readdir(root)).filter((n) => n.endsWith(".tmp"))).toEqual([]);
    expect(await contentHash(new Uint8Array(before[0] ?? []))).toMatch(/^[0-9a-f]{16}$/);
  });
});
