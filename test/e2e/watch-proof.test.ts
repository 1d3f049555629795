// The watcher's proof (ctx.lsp.watchProof, src/lsp/unchanged-memo.ts) is there before any language
// server starts: a cold whole-workspace check runs the compiler per project before it asks a
// server anything, and its answers are kept under that proof, so the next call reuses them.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { lspFixture, type LspFixture } from "../helpers/lsp-fixture.ts";

let fx: LspFixture;
beforeAll(async () => {
  fx = await lspFixture({ "src/a.ts": "export const a = 1;\n", "src/b.ts": "export const b = 2;\n" });
});
afterAll(async () => {
  await fx?.stop();
});

it("is given with no server running, and names a change made after it", async () => {
  const first = await fx.lsp.watchProof();
  expect(fx.lsp.status().servers).toEqual([]);
  if (first === undefined) throw new Error("no proof on Node on Linux with no server running");
  expect(await first.hears(join(fx.root, "src/a.ts"))).toBe(true);
  await writeFile(join(fx.root, "src/a.ts"), "export const a = 2;\n");
  const changed = (await fx.lsp.watchProof())?.changesSince(first.generation);
  expect([changed?.touches(join(fx.root, "src/a.ts")), changed?.touches(join(fx.root, "src/b.ts"))]).toEqual([true, false]);
});
