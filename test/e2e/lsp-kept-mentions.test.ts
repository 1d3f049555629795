// findReferences keeps its text cross-check while the workspace is unchanged (unchanged-memo.ts),
// and a kept search must never outlive a change: a mention written, removed, or put in a new folder
// outside the bridge right before the next call is in that call's answer, against the real
// TypeScript server, rg and watcher.
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lspFixture, type LspFixture, writeFiles } from "../helpers/lsp-fixture.ts";

const SLOW = 120_000;
const files: Record<string, string> = {
  "tsconfig.json": JSON.stringify({ compilerOptions: { strict: true, module: "nodenext", noEmit: true }, include: ["src"] }),
  "src/core.ts": "/** Adds one. */\nexport function shared(n: number): number {\n  return n + 1;\n}\n",
  "src/a.ts": 'import { shared } from "./core.js";\nexport const a = shared(1);\n',
  "README.md": "# Demo\n",
};

let fx: LspFixture;
const refs = () => fx.tools.text("findReferences", { file: "src/core.ts", line: 2, symbol: "shared", verbosity: "minimal" });
const also = (text: string) => text.split("\n").find((l) => l.startsWith("Also mentioned in")) ?? "";

beforeAll(async () => {
  fx = await lspFixture(files);
  // The first call starts the server and the watcher; wait until the watcher vouches (its walk is done).
  await refs();
  const deadline = Date.now() + 30_000;
  while (fx.lsp.status().watchedDirectories < 2 && Date.now() < deadline) await refs();
}, SLOW);
afterAll(() => fx?.stop());

describe("findReferences' kept text search", () => {
  it(
    "answers the same while nothing changes, and sees a mention written, removed or put in a new folder just before a call",
    async () => {
      const first = await refs();
      expect(first).toMatch(/^3 references to `shared` in 2 files \(complete\)/);
      expect(also(first)).toBe("");
      expect(await refs()).toBe(first);

      await writeFiles(fx.root, { "README.md": "# Demo\nCall `shared` to add one.\n" });
      expect(also(await refs())).toMatch(/: README\.md \(1\)$/);

      await writeFiles(fx.root, { "README.md": "# Demo\n" });
      expect(also(await refs())).toBe("");

      await writeFiles(fx.root, { "docs/new/guide.md": "shared\nshared twice\n" });
      expect(also(await refs())).toMatch(/: docs\/new\/guide\.md \(2\)$/);

      await writeFiles(fx.root, { "src/b.ts": 'import { shared } from "./core.js";\nexport const b = shared(2);\n' });
      expect(await refs()).toMatch(/^5 references to `shared` in 3 files \(complete\)/);

      await rm(join(fx.root, "docs"), { recursive: true });
      await rm(join(fx.root, "src/b.ts"));
      const after = await refs();
      expect(after).toMatch(/^3 references to `shared` in 2 files \(complete\)/);
      expect(also(after)).toBe("");
    },
    SLOW,
  );
});
