// The caps on staged text: a session past its own cap, and any session past the bridge's, is
// refused with a clear error before the text is kept; what was staged before stays staged and
// commits whole; committing, rolling back or the session's end gives the room back.
import { mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ToolContext } from "../../../src/capabilities/context.ts";
import beginTransaction from "../../../src/tools/edit/begin-transaction.ts";
import commitTransaction from "../../../src/tools/edit/commit-transaction.ts";
import rollbackTransaction from "../../../src/tools/edit/rollback-transaction.ts";
import stageEdit from "../../../src/tools/edit/stage-edit.ts";
import { stagedFileBytes, stringBytes } from "../../../src/services/edit-transactions/staged-bytes.ts";
import { TRANSACTIONS } from "../../../src/services/edit-transactions/transaction-store.ts";
import { makeToolContext } from "../../helpers/tool-context.ts";

const MIB = 1024 * 1024;
const CHUNK = Math.round(0.9 * MIB);
let root: string;
beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), "cib-staged-")));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

type Call = (input: unknown, ctx: ToolContext) => Promise<unknown>;
const run = (tool: { handlers: { headless: Call | undefined } }) => tool.handlers.headless as Call;
const begin = async (ctx: ToolContext) => ((await run(beginTransaction)({}, ctx)) as { transactionId: string }).transactionId;
const stage = (ctx: ToolContext, transactionId: string, filePath: string, content: string) =>
  run(stageEdit)({ transactionId, filePath, content }, ctx);

describe("staged text", () => {
  it("counts one byte per Latin-1 character and two otherwise", () => {
    expect(stringBytes("abc\u00e9")).toBe(4);
    expect(stringBytes("ab\u4e2d")).toBe(6);
    const original = new TextEncoder().encode("hello\n");
    expect(stagedFileBytes({ base: { original, text: "hello\n" }, text: "hello\n" })).toBe(12);
    expect(stagedFileBytes({ base: { original, text: "hello\n" }, text: "HELLO!\n" })).toBe(19);
  });

  it("is refused past the session's cap and the bridge's, keeps what was staged, and frees room when it ends", async () => {
    const limits = { session: 2 * MIB, bridge: 3 * MIB };
    const mine = await makeToolContext(root, { session: "mine", settings: { stagedBytes: limits } });
    const theirs: ToolContext = { ...mine, session: "theirs" };
    const third: ToolContext = { ...mine, session: "third" };
    const chunk = "x".repeat(CHUNK);
    const tx = await begin(mine);
    await stage(mine, tx, "a.txt", chunk);
    await stage(mine, tx, "b.txt", chunk);
    // 1.8 MB held; a third 0.9 MB passes the session's 2 MB.
    await expect(stage(mine, tx, "c.txt", chunk)).rejects.toMatchObject({
      code: "limit_reached",
      message: expect.stringMatching(/in this session; at most 2\.0 MB \(--max-session-staged-mb\)\. Nothing more was staged/),
    });
    // A second transaction of the same session counts against the same cap.
    const tx2 = await begin(mine);
    await expect(stage(mine, tx2, "c.txt", chunk)).rejects.toMatchObject({ code: "limit_reached" });
    // Growing a staged file counts its growth; a refused edit leaves the staged text as it was.
    await expect(stage(mine, tx, "a.txt", chunk + chunk)).rejects.toMatchObject({ code: "limit_reached" });
    const store = mine.state(TRANSACTIONS);
    expect(store.held("mine").session).toBe(2 * CHUNK);

    const other = await begin(theirs);
    await stage(theirs, other, "t.txt", chunk);
    // 2.7 MB in the bridge: another session's next 0.9 MB passes the bridge's 3 MB.
    const refused = await begin(third);
    await expect(stage(third, refused, "u.txt", chunk)).rejects.toMatchObject({
      code: "limit_reached",
      message: expect.stringMatching(/across all sessions of the bridge; at most 3\.0 MB \(--max-staged-mb\)/),
    });
    // An existing file larger than the room left is refused before it is read.
    await writeFile(join(root, "big.txt"), chunk);
    await expect(
      run(stageEdit)({ transactionId: refused, filePath: "big.txt", oldContent: "x", newContent: "y" }, third),
    ).rejects.toMatchObject({
      code: "limit_reached",
    });

    // Nothing lost: what was staged commits whole.
    await run(commitTransaction)({ transactionId: tx }, mine);
    expect((await readFile(join(root, "a.txt"), "utf8")).length).toBe(chunk.length);
    expect((await readFile(join(root, "b.txt"), "utf8")).length).toBe(chunk.length);
    expect(store.held("mine").session).toBe(0);
    // The room is back for everyone: the third session stages now; a rollback and a session's end free theirs.
    await stage(third, refused, "u.txt", chunk);
    await run(rollbackTransaction)({ transactionId: refused }, third);
    expect(store.held("third")).toEqual({ session: 0, bridge: CHUNK, transactions: [] });
    store.releaseSession("theirs");
    expect(store.held("theirs")).toEqual({ session: 0, bridge: 0, transactions: [] });
  });
});
