// The jail against a racing neighbour: a separate process swaps a workspace
// file between a regular file and a symlink to an outside file, or a FIFO, with atomic renames,
// while readFile reads it through the real dispatcher. Before the jail checked what it opened, 16%
// of such reads returned the outside file, and the FIFO swap wedged all file I/O.
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startRacer as startRacerProcess, type Racer } from "../../helpers/racer-process.ts";
import { dispatcher, type Dispatcher } from "../../helpers/tool-dispatch.ts";
import { toolErrorCode } from "../../helpers/tool-error.ts";

const RACER = fileURLToPath(new URL("../../fixtures/swap-racer.mjs", import.meta.url));
const READS = 3000;
const PARALLEL = 8;
const SECRET = "outside secret";
/** A few thousand reads against a racing process: seconds, more on a loaded machine. */
const RACE_TIMEOUT_MS = 60_000;

let base: string;
let root: string;
let outside: string;
let d: Dispatcher;
let racer: Racer | undefined;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "cib-race-")));
  root = join(base, "ws");
  outside = join(base, "outside.txt");
  await mkdir(root);
  await writeFile(outside, `${SECRET}\n`);
  await writeFile(join(root, "unrelated.txt"), "calm\n");
  d = await dispatcher(root);
});

afterEach(async () => {
  await stopRacer();
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

async function startRacer(mode: "symlink" | "fifo", name: string): Promise<void> {
  racer = await startRacerProcess(RACER, [mode, root, name, outside]);
}

/** Stops the racer and returns how many swaps it made. */
async function stopRacer(): Promise<number> {
  const running = racer;
  racer = undefined;
  return (await running?.stop()) ?? 0;
}

interface Tally {
  inside: number;
  escapes: number;
  refused: Map<string, number>;
}

/**
 * READS reads of `path`, and more (for up to 10 s) until one got the file itself: on a loaded
 * machine a read can take long enough to meet a swap nearly every time.
 */
async function readRepeatedly(path: string): Promise<Tally> {
  const tally: Tally = { inside: 0, escapes: 0, refused: new Map() };
  let extraUntil = Number.POSITIVE_INFINITY;
  for (let done = 0; done < READS || (tally.inside === 0 && performance.now() < extraUntil); done += PARALLEL) {
    if (done >= READS && extraUntil === Number.POSITIVE_INFINITY) extraUntil = performance.now() + 10_000;
    const results = await Promise.all(Array.from({ length: PARALLEL }, () => d.call("readFile", { path })));
    for (const result of results) {
      const text = result.content[0]?.text ?? "";
      if (text.includes(SECRET)) tally.escapes++;
      else if (result.isError) {
        const code = toolErrorCode(result) ?? "ok";
        tally.refused.set(code, (tally.refused.get(code) ?? 0) + 1);
      } else if (text === "1\tinside") tally.inside++;
      else throw new Error(`unexpected answer: ${text}`);
    }
  }
  return tally;
}

describe("a file swapped for a symlink to an outside file", () => {
  it("is never read through: zero escapes in 3,000 reads", { timeout: RACE_TIMEOUT_MS }, async () => {
    await startRacer("symlink", "swapped.txt");
    const tally = await readRepeatedly("swapped.txt");
    const swaps = await stopRacer();
    console.log(
      `symlink race: ${swaps} swaps, ${tally.inside} reads inside, ${tally.escapes} escapes, refused ${JSON.stringify([...tally.refused])}`,
    );
    expect(tally.escapes).toBe(0);
    expect(swaps).toBeGreaterThan(100);
    // The race was real: some reads met the symlink and were refused, others got the file.
    expect(tally.inside).toBeGreaterThan(0);
    expect([...tally.refused.keys()].every((code) => ["outside_workspace", "invalid_path", "file_not_found"].includes(code))).toBe(true);
  });
});

describe("a file swapped for a FIFO", () => {
  it("never blocks a read, and file I/O keeps working for everything else", { timeout: RACE_TIMEOUT_MS }, async () => {
    await startRacer("fifo", "piped.txt");
    const tally = await readRepeatedly("piped.txt");
    // While the racer still runs: an unrelated read answers.
    expect(await d.text("readFile", { path: "unrelated.txt" })).toBe("1\tcalm");
    const swaps = await stopRacer();
    console.log(`fifo race: ${swaps} swaps, ${tally.inside} reads inside, refused ${JSON.stringify([...tally.refused])}`);
    expect(swaps).toBeGreaterThan(100);
    expect(tally.inside).toBeGreaterThan(0);
    expect(tally.refused.get("not_a_file") ?? 0).toBeGreaterThan(0);
    // Many reads at once after the storm: none is stuck behind a blocked open.
    const after = await Promise.all(Array.from({ length: 32 }, () => d.text("readFile", { path: "unrelated.txt" })));
    expect(new Set(after)).toEqual(new Set(["1\tcalm"]));
  });
});
