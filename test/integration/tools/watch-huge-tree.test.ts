// watchFiles on a 100,000-file tree: the watch starts without holding the event loop (the longest
// turn stays under 100 ms, where Node's own recursive watch held it for seconds: both measured
// here, on the same tree), it reports a change deep in the tree and what a new directory holds,
// and a tree with more directories than a watch may hold is refused, holding nothing.
// A turn is measured in wall-clock time, so on a loaded machine the OS's own pauses of the process
// show in it too: they are measured in the same run (the longest turn of an idle wait as long as
// the watch took) and allowed on top of the 100 ms.
// The tree lives in memory (/dev/shm) when the machine has room there: on a disk, writing and
// removing 100,000 files took 15-30 s here and over a minute on a loaded CI run.
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, realpath, rm, statfs, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import watchFiles from "../../../src/tools/files/watch-files.ts";
import { MAX_DIRECTORIES_PER_WATCH, WATCHES } from "../../../src/tools/files/watch-store.ts";
import { measureTurns } from "../../helpers/event-loop-turns.ts";
import { makeToolContext } from "../../helpers/tool-context.ts";
import { dispatcher, type Dispatcher } from "../../helpers/tool-dispatch.ts";

const execFileAsync = promisify(execFile);
const DIRECTORIES = 1000;
const FILES_PER_DIRECTORY = 100;
const MAX_TURN_MS = 100;

/** 100,000 one-line files take a page each on tmpfs: about 400 MB; asked for with room to spare. */
const MEMORY_TREE_BYTES = 2 * 1024 ** 3;

async function scratchParent(): Promise<string> {
  const free = await statfs("/dev/shm").then(
    (s) => s.bavail * s.bsize,
    () => 0,
  );
  return free >= MEMORY_TREE_BYTES ? "/dev/shm" : tmpdir();
}

let base: string;
let root: string;
let d: Dispatcher;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(await scratchParent(), "cib-watch-huge-")));
  root = join(base, "ws");
  for (let i = 0; i < DIRECTORIES; i++) {
    const dir = join(root, `pkg${Math.floor(i / 50)}`, `mod${i}`);
    await mkdir(dir, { recursive: true });
    await Promise.all(Array.from({ length: FILES_PER_DIRECTORY }, (_, f) => writeFile(join(dir, `f${f}.ts`), "x\n")));
  }
  d = await dispatcher(root);
}, 300_000);
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
}, 300_000);

interface Changes {
  changes: { path: string; change: string }[];
  overflowed: boolean;
}

/** How long one call of Node's recursive watch on `dir` takes (it runs in one turn), in a fresh process. */
async function nodeRecursiveWatchMs(dir: string): Promise<number> {
  const script = `const { watch } = require("node:fs");
const started = performance.now();
const watcher = watch(process.argv[1], { recursive: true, persistent: false });
console.log(performance.now() - started);
watcher.close();`;
  const { stdout } = await execFileAsync(process.execPath, ["-e", script, dir], { timeout: 240_000 });
  return Number(stdout.trim());
}

/** watchFiles on the whole tree, with the event-loop turns its start took. */
function startMeasured() {
  return measureTurns(() => d.data<{ watchId: string; directories: number }>("watchFiles", {}));
}

async function changesUntil(watchId: string, want: (seen: Changes["changes"]) => boolean): Promise<Changes["changes"]> {
  const seen: Changes["changes"] = [];
  for (let reads = 0; reads < 20 && !want(seen); reads++)
    seen.push(...(await d.data<Changes>("getFileChanges", { watchId, waitMs: 10_000 })).changes);
  return seen;
}

describe(`watchFiles on ${DIRECTORIES * FILES_PER_DIRECTORY} files`, () => {
  it(`starts with no event-loop turn over ${MAX_TURN_MS} ms, and sees changes anywhere in the tree`, async () => {
    // The baseline, on the same tree: Node's recursive watch, which the runtime's Fs.watch used. It
    // runs in a process of its own: closing its 101,021 OS watches floods the process's one inotify
    // queue (16,384 events), which drops what comes next (it once made ours miss the change written
    // below), and their 101,021 close callbacks would land in the turns measured here.
    const node = await nodeRecursiveWatchMs(root);
    // A pause of the OS during the watch's start may miss the idle window after it (a loaded CI
    // run: a 197 ms turn against an idle window's 15 ms): the start is measured up to three times.
    // Code that holds the loop (a synchronous walk) holds it each time, so it fails all three.
    const attempts: string[] = [];
    let started: { ours: Awaited<ReturnType<typeof startMeasured>>; within: boolean } | undefined;
    for (let attempt = 0; attempt < 3 && started?.within !== true; attempt++) {
      if (started !== undefined) await d.data("unwatchFiles", { watchId: started.ours.value.watchId });
      const ours = await startMeasured();
      // The machine's own pauses over as long a time (5 s at least: a short window of a loaded
      // machine may catch none of the pauses it has), with nothing of ours running.
      const idle = await measureTurns(() => new Promise((resolve) => setTimeout(resolve, Math.max(ours.ms, 5000))));
      attempts.push(`longest turn ${ours.longest.toFixed(1)} ms, idle wait's ${idle.longest.toFixed(1)} ms`);
      started = { ours, within: ours.longest < MAX_TURN_MS + idle.longest };
    }
    const ours = (started as NonNullable<typeof started>).ours;
    const { watchId, directories } = ours.value;
    console.log(
      `watchFiles: ${ours.ms.toFixed(0)} ms, ${attempts.join("; ")}, ` +
        `${directories} directories; Node's recursive watch: ${node.toFixed(0)} ms in one turn, ${(node / ours.longest).toFixed(0)}x longer`,
    );
    expect(directories).toBe(DIRECTORIES + DIRECTORIES / 50 + 1);
    expect(started?.within, attempts.join("; ")).toBe(true);
    expect(node / ours.longest).toBeGreaterThan(5);

    await writeFile(join(root, "pkg7", "mod351", "f42.ts"), "changed\n");
    expect(await changesUntil(watchId, (s) => s.some((c) => c.path === "pkg7/mod351/f42.ts"))).toContainEqual({
      path: "pkg7/mod351/f42.ts",
      change: "changed",
    });
    // A directory made after the start is watched too, and what it held before its watch is reported.
    await mkdir(join(root, "pkg3", "fresh", "deeper"), { recursive: true });
    await writeFile(join(root, "pkg3", "fresh", "deeper", "early.ts"), "x\n");
    await changesUntil(watchId, (s) => s.some((c) => c.path === "pkg3/fresh/deeper/early.ts"));
    await writeFile(join(root, "pkg3", "fresh", "deeper", "late.ts"), "x\n");
    expect(await changesUntil(watchId, (s) => s.some((c) => c.path === "pkg3/fresh/deeper/late.ts"))).toContainEqual({
      path: "pkg3/fresh/deeper/late.ts",
      change: "created",
    });
    await d.data("unwatchFiles", { watchId });
    // Walking 100,000 files twice (ours and Node's) took 169 s of a shared 2-core CI run.
  }, 300_000);

  it(`refuses a tree of more than ${MAX_DIRECTORIES_PER_WATCH} directories, holding nothing`, async () => {
    const wide = join(root, "wide");
    for (let i = 0; i <= MAX_DIRECTORIES_PER_WATCH; i += 256)
      await Promise.all(Array.from({ length: 256 }, (_, j) => mkdir(join(wide, `d${i + j}`), { recursive: true })));
    const ctx = await makeToolContext(root);
    const start = watchFiles.handlers.headless;
    const {
      value: failure,
      longest,
      ms,
    } = await measureTurns(() =>
      (start?.({ path: "wide", includeHidden: false }, ctx) ?? Promise.resolve()).then(
        () => undefined,
        (err: unknown) => err,
      ),
    );
    expect(failure).toMatchObject({
      code: "limit_reached",
      message: expect.stringMatching(/^wide has more than 4096 directories to watch .*so nothing is watched$/),
      suggestion: expect.stringMatching(/Watch the subdirectory you care about/),
    });
    // As above: a short idle window of a loaded machine may catch none of the pauses the refusal met.
    const idle = await measureTurns(() => new Promise((resolve) => setTimeout(resolve, Math.max(ms, 5000))));
    expect(longest).toBeLessThan(MAX_TURN_MS + idle.longest);
    expect(ctx.state(WATCHES).size).toBe(0);
    expect(ctx.state(WATCHES).directories).toBe(0);
  }, 120_000);
});
