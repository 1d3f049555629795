// The tools that show names from rg's file list (getProjectContext, contextBundle's project part,
// findRelatedTests) against a racing neighbour: a separate process swaps a workspace directory for
// a symlink to an outside directory and back while they run, through the real dispatcher. rg lists
// by path, so it can list the outside directory's names; the tools check rg's names again through
// the jail, so no outside name is shown and no outside file is counted.
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRacer, type Racer } from "../../helpers/racer-process.ts";
import { dispatcher, type Dispatcher } from "../../helpers/tool-dispatch.ts";

const RACER = fileURLToPath(new URL("../../fixtures/dir-swap-racer.mjs", import.meta.url));
const ROUNDS = Number(process.env.CIB_RACE_ROUNDS ?? 75);
/** Files only the outside directory has: any of them counted or named is an escape. */
const OUTSIDE_FILES = 40;
const RACE_TIMEOUT_MS = 240_000;

let base: string;
let root: string;
let d: Dispatcher;
let racer: Racer | undefined;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "cib-lrace-")));
  root = join(base, "ws");
  const outside = join(base, "outside");
  await mkdir(join(root, "src"), { recursive: true });
  await mkdir(outside);
  await writeFile(join(root, "package.json"), '{"name":"racy"}\n');
  await writeFile(join(root, "src/widget.ts"), "export const w = 1;\n");
  await writeFile(join(outside, "widget.test.ts"), 'import { w } from "../src/widget";\n');
  for (let i = 0; i < OUTSIDE_FILES; i++) await writeFile(join(outside, `secret-${i}.txt`), "outside\n");
  d = await dispatcher(root);
  // The real directory holds f.txt only (dir-swap-racer.mjs).
  racer = await startRacer(RACER, [root, "swap", outside]);
});

afterAll(async () => {
  await racer?.stop();
  await rm(base, { recursive: true, force: true });
});

interface Context {
  layout: { path: string; files: number }[];
  fileCount: number;
}

describe("names from rg's list while a directory is swapped for a symlink to outside", () => {
  it("are never shown or counted: zero escapes", { timeout: RACE_TIMEOUT_MS }, async () => {
    let escapes = 0;
    let contextEscapes = 0;
    let testEscapes = 0;
    const seen: string[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const [context, tests] = await Promise.all([
        d.data<Context>("getProjectContext"),
        d.data<{ tests: { path: string }[] }>("findRelatedTests", { filePath: "src/widget.ts" }),
      ]);
      const swapFiles = context.layout.find((l) => l.path === "swap/")?.files ?? 0;
      // Inside: package.json, src/widget.ts and at most swap/f.txt.
      if (swapFiles > 1 || context.fileCount > 3) contextEscapes++;
      if (tests.tests.length > 0) testEscapes++;
      const escaped = swapFiles > 1 || context.fileCount > 3 || tests.tests.length > 0;
      if (escaped) escapes++;
      if (escaped && seen.length < 3) seen.push(JSON.stringify({ layout: context.layout, tests: tests.tests }));
    }
    const swaps = (await racer?.stop()) ?? 0;
    racer = undefined;
    console.log(
      `listing race: ${swaps} swaps; ${ROUNDS} rounds; escapes: getProjectContext ${contextEscapes}, findRelatedTests ${testEscapes}`,
    );
    expect(seen).toEqual([]);
    expect(escapes).toBe(0);
    expect(swaps).toBeGreaterThan(100);
  });
});
