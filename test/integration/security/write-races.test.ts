// The write tools (and the searches, which read by path through rg) against a racing neighbour: a
// separate process swaps a workspace directory for a symlink to an outside directory and back, as
// fast as it can, while createFile, editText, replaceBlock, deleteFile, renameFile,
// searchAndReplace and a transaction write into it, and getBufferContent, searchWorkspace and
// findFiles read it, through the real dispatcher. Writes go through the checked descriptor of the
// directory and rg's hits are read again through the jail, so whatever the timing, nothing outside
// changes or is shown (zero escapes), and every refusal has a code a model can act on.
import { mkdir, mkdtemp, readdir, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRacer as startRacerProcess, type Racer } from "../../helpers/racer-process.ts";
import { dispatcher, type Dispatcher } from "../../helpers/tool-dispatch.ts";
import { toolErrorCode } from "../../helpers/tool-error.ts";

const RACER = fileURLToPath(new URL("../../fixtures/dir-swap-racer.mjs", import.meta.url));
const ROUNDS = Number(process.env.CIB_RACE_ROUNDS ?? 200);
const SECRET = "outside secret\n";
/** Thousands of writes against a racing process: seconds, more on a loaded machine. */
const RACE_TIMEOUT_MS = 240_000;

let base: string;
let root: string;
let outside: string;
let d: Dispatcher;
let racer: Racer | undefined;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "cib-wrace-")));
  root = join(base, "ws");
  outside = join(base, "outside");
  await mkdir(root);
  await mkdir(outside);
  await writeFile(join(outside, "f.txt"), SECRET);
  // A name only outside has: no listing may show it.
  await writeFile(join(outside, "only-outside.txt"), SECRET);
  d = await dispatcher(root);
});

afterAll(async () => {
  await stopRacer();
  await rm(base, { recursive: true, force: true });
});

async function startRacer(): Promise<void> {
  racer = await startRacerProcess(RACER, [root, "swap", outside]);
}

/** Stops the racer and returns how many swaps it made. */
async function stopRacer(): Promise<number> {
  const running = racer;
  racer = undefined;
  return (await running?.stop()) ?? 0;
}

describe("writes into a directory swapped for a symlink to outside", () => {
  it("never land outside: zero escapes", { timeout: RACE_TIMEOUT_MS }, async () => {
    await startRacer();
    const outcomes = new Map<string, number>();
    const count = (key: string) => outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
    /** A race is an expected failure with a code the model can act on, never an internal error. */
    const internal: string[] = [];
    /** Answers that show outside's content or a name only outside has. */
    const leaks: string[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const calls: [string, Record<string, unknown>][] = [
        ["createFile", { filePath: `swap/new-${i}.txt`, content: "pwned\n" }],
        ["createFile", { filePath: `swap/deep-${i}/x.txt`, content: "pwned\n" }],
        ["createFile", { filePath: "swap/f.txt", content: "pwned\n", overwrite: true }],
        ["editText", { filePath: "swap/f.txt", edits: [{ type: "insert", line: 1, text: "pwned" }] }],
        ["replaceBlock", { filePath: "swap/f.txt", oldContent: "outside secret", newContent: "pwned" }],
        ["deleteFile", { filePath: "swap/f.txt", useTrash: false }],
        ["renameFile", { oldPath: "swap/f.txt", newPath: `moved-${i}.txt` }],
        ["searchAndReplace", { pattern: "secret", replacement: "pwned", path: "swap" }],
        ["getBufferContent", { filePath: "swap/f.txt" }],
        ["searchWorkspace", { pattern: "secret", path: "swap" }],
        ["findFiles", { pattern: "*.txt", path: "swap" }],
      ];
      const results = await Promise.all(calls.map(([tool, args]) => d.call(tool, args)));
      results.forEach((r, k) => {
        const text = r.content[0]?.text ?? "";
        if (text.includes("outside secret") || text.includes("only-outside")) leaks.push(`${calls[k]?.[0]}: ${text.slice(0, 300)}`);
        const code = toolErrorCode(r) ?? "ok";
        if (code === "internal_error") internal.push(text);
        count(`${calls[k]?.[0]} ${code}`);
      });
      const { transactionId } = await d.data<{ transactionId: string }>("beginTransaction");
      await d.call("stageEdit", { transactionId, filePath: "swap/f.txt", content: "pwned by tx\n" });
      const committed = await d.call("commitTransaction", { transactionId });
      count(`commitTransaction ${committed.isError ? "refused" : "ok"}`);
    }
    const swaps = await stopRacer();
    console.log(`write race: ${swaps} swaps; ${JSON.stringify([...outcomes].sort())}`);
    expect(leaks).toEqual([]);
    expect(internal.slice(0, 3)).toEqual([]);
    expect(swaps).toBeGreaterThan(100);
    expect((await readdir(outside)).sort()).toEqual(["f.txt", "only-outside.txt"]);
    expect(await readFile(join(outside, "f.txt"), "utf8")).toBe(SECRET);
    // The race was real: some writes got through to the real directory.
    expect([...outcomes].some(([key, n]) => key.endsWith(" ok") && key.startsWith("createFile") && n > 0)).toBe(true);
  });
});
