// The edit tools report the diagnostics they changed when a real language server (TypeScript's,
// as the bridge runs it) already has the file, and say nothing of diagnostics when none does: an
// edit never starts a server. getDocumentSymbols is what opens a file in the server here.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lspFixture, type LspFixture } from "../helpers/lsp-fixture.ts";

let fx: LspFixture;

beforeAll(async () => {
  fx = await lspFixture({
    "tsconfig.json": JSON.stringify({ compilerOptions: { strict: true, noEmit: true, module: "nodenext" }, include: ["src"] }),
    "src/a.ts": 'export const n: number = 1;\nexport const s: string = "s";\n',
    "src/b.ts": "export const m: number = 2;\n",
    "src/untouched.ts": "export const u: number = 3;\n",
  });
});

afterAll(async () => {
  await fx?.stop();
});

describe("the diagnostics delta of an edit", () => {
  it("lists the error an edit makes and the one it fixes, for a file the server has", async () => {
    await fx.tools.call("getDocumentSymbols", { file: "src/a.ts" });
    const broke = await fx.tools.text("replaceBlock", { filePath: "src/a.ts", oldContent: "number = 1", newContent: 'number = "one"' });
    expect(broke).toMatch(
      /^Edited src\/a\.ts \(\+1 -1\); hash \w+\nDiagnostics \(typescript[^)]*\): 1 new, 0 fixed, 1 in the file now\n {2}\+ 1:14 error: Type 'string' is not assignable to type 'number'\. \(2322\)\n--- a\/src\/a\.ts/,
    );
    const fixed = await fx.tools.text("editText", {
      filePath: "src/a.ts",
      edits: [{ type: "replace", line: 1, text: "export const n: number = 1;" }],
    });
    expect(fixed).toMatch(
      /\nDiagnostics \([^)]*\): 0 new, 1 fixed, 0 in the file now\n {2}- error: Type 'string' is not assignable to type 'number'\. \(2322\)\n/,
    );
    const same = await fx.tools.text("replaceBlock", { filePath: "src/a.ts", oldContent: '"s"', newContent: '"t"' });
    expect(same).toMatch(/\nDiagnostics \([^)]*\): unchanged, 0 in the file\n/);
  });

  it("covers every file of a transaction the server has", async () => {
    await fx.tools.call("getDocumentSymbols", { file: "src/b.ts" });
    const { transactionId } = await fx.tools.data<{ transactionId: string }>("beginTransaction");
    await fx.tools.text("stageEdit", { transactionId, filePath: "src/b.ts", content: "export const m: number = true;\n" });
    await fx.tools.text("stageEdit", { transactionId, filePath: "src/a.ts", content: "export const n: number = 1;\n" });
    const out = await fx.tools.text("commitTransaction", { transactionId });
    expect(out).toMatch(
      /Edited src\/b\.ts \(\+1 -1\); hash \w+\nDiagnostics \([^)]*\): 1 new, 0 fixed, 1 in the file now\n {2}\+ 1:14 error: Type 'boolean' is not assignable to type 'number'\. \(2322\)/,
    );
    expect(out).toMatch(/Edited src\/a\.ts \(\+0 -1\); hash \w+\nDiagnostics \([^)]*\): unchanged/);
  });

  it("says nothing of diagnostics for a file no server has, and starts none for it", async () => {
    const before = fx.lsp.status().servers.length;
    const out = await fx.tools.text("editText", {
      filePath: "src/untouched.ts",
      edits: [{ type: "replace", line: 1, text: 'export const u: number = "x";' }],
    });
    expect(out).not.toMatch(/Diagnostics/);
    expect(fx.lsp.status().servers.length).toBe(before);
    expect(await readFile(join(fx.root, "src/untouched.ts"), "utf8")).toBe('export const u: number = "x";\n');
  });
});
