// searchAndReplace promises all files or none. A file another process keeps writing while the
// replace reads it must stop the whole change (naming it), not be left out while the rest is
// committed without it; once nothing writes it, the same replace changes every file.
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRacer } from "../../helpers/racer-process.ts";
import { dispatcher, type Dispatcher } from "../../helpers/tool-dispatch.ts";
import { readToolError } from "../../helpers/tool-error.ts";

const RACER = resolve(import.meta.dirname, "../../fixtures/append-racer.mjs");
const FILES = 60;
const RUNS = 8;

let base: string;
let root: string;
let d: Dispatcher;
const names = Array.from({ length: FILES }, (_, i) => `src/f${String(i).padStart(2, "0")}.ts`);

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "cib-replace-race-")));
  root = join(base, "ws");
  await mkdir(join(root, "src"), { recursive: true });
  for (const name of names) await writeFile(join(root, name), `export const oldName = "${name}";\n`);
  d = await dispatcher(root);
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

async function changedCount(): Promise<number> {
  const texts = await Promise.all(names.map((n) => readFile(join(root, n), "utf8")));
  return texts.filter((t) => t.includes("newName")).length;
}

describe("searchAndReplace with a file written under it", () => {
  it("writes none while one file keeps changing, naming it, and all once it stops", async () => {
    const hot = join(root, "src", "hot.ts");
    const racer = await startRacer(RACER, [hot]);
    const refusals: string[] = [];
    try {
      for (let run = 0; run < RUNS; run++) {
        const result = await d.call("searchAndReplace", { pattern: "oldName", replacement: "newName", path: "src" });
        const text = result.content[0]?.text ?? "";
        // All or none, whatever the race gave this time.
        const changed = await changedCount();
        expect([0, FILES], text.slice(0, 300)).toContain(changed);
        if (result.isError !== true) {
          // The racer's file was read whole and was still that version when written: every file
          // changed, that one too (leaving it out and writing the rest is what must not happen).
          // It may also have been read just as the racer started it over (empty: no match), so
          // 60 of 61 is true too, but never with a file left out.
          expect(text).toMatch(new RegExp(`^Replaced \\d+ matches in (${FILES}|${FILES + 1}) of ${FILES + 1} files, all files at once\\.`));
          for (const name of names) await writeFile(join(root, name), `export const oldName = "${name}";\n`);
          // The racer only ever adds matches, but a starved one may not have written since.
          await writeFile(hot, "oldName\n");
          continue;
        }
        expect(readToolError(result)).toMatchObject({
          code: "file_changed",
          error: expect.stringMatching(/^src\/hot\.ts .*nothing was written$/),
        });
        refusals.push(text);
      }
    } finally {
      expect(await racer.stop()).toBeGreaterThan(0);
    }
    expect(refusals.length).toBeGreaterThan(0);
    // The last run may have replaced the racer's file after its last write.
    await writeFile(hot, "oldName\n");
    expect(await d.text("searchAndReplace", { pattern: "oldName", replacement: "newName", path: "src" })).toMatch(
      new RegExp(`^Replaced \\d+ matches in ${FILES + 1} of ${FILES + 1} files, all files at once\\.`),
    );
    expect(await changedCount()).toBe(FILES);
  });
});
