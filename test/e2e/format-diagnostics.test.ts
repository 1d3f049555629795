// formatDocument and formatAndSave report what the write did to the file's diagnostics when a real
// language server (TypeScript's) has the file: formatting keeps the errors as they were, and when a
// formatter does change them the answer says so first. The real case here is prettier (installed
// with yaml-language-server) joining a statement whose first line ends in `/* @ts-expect-error */`:
// the directive then sits on the line of the error it covered on the next line, and covers nothing.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lspFixture, type LspFixture } from "../helpers/lsp-fixture.ts";

let fx: LspFixture;

beforeAll(async () => {
  fx = await lspFixture({
    "tsconfig.json": JSON.stringify({ compilerOptions: { strict: true, noEmit: true, module: "nodenext" }, include: ["src"] }),
    "src/spaced.ts": 'export const  n: number = "x" ;\n',
    "src/suppressed.ts": 'export const h: number = 1 + /* @ts-expect-error */\n  "s".foo;\n',
    "src/unopened.ts": "export const  u = 1 ;\n",
  });
  await fx.tools.call("getDocumentSymbols", { file: "src/spaced.ts" });
  await fx.tools.call("getDocumentSymbols", { file: "src/suppressed.ts" });
});

afterAll(async () => {
  await fx?.stop();
});

describe("the diagnostics delta of formatting", () => {
  it("formatting whitespace keeps the file's errors: unchanged", async () => {
    const out = await fx.tools.text("formatAndSave", { file: "src/spaced.ts", formatter: "prettier" });
    expect(out).toMatch(
      /^Formatted src\/spaced\.ts with [^:]+: lines 1-1 changed \(1 lines became 1\)\.\nDiagnostics \(typescript-go [^)]*\): unchanged, 1 in the file$/,
    );
    expect(await readFile(join(fx.root, "src/spaced.ts"), "utf8")).toBe('export const n: number = "x";\n');
  });

  it("a formatter that moves a @ts-expect-error is caught: the answer warns and lists the new errors", async () => {
    const out = await fx.tools.text("formatDocument", { file: "src/suppressed.ts", formatter: "prettier" });
    expect(await readFile(join(fx.root, "src/suppressed.ts"), "utf8")).toBe(
      'export const h: number = 1 /* @ts-expect-error */ + "s".foo;\n',
    );
    const lines = out.split("\n");
    expect(lines[0]).toBe(
      "WARNING: formatting added 2 errors (listed below); a formatter should not change what the code means: fix them, or undo the change.",
    );
    expect(lines[1]).toMatch(/^Formatted src\/suppressed\.ts with [^:]+: lines 1-2 changed \(2 lines became 1\)\.$/);
    expect(lines[2]).toMatch(/^Diagnostics \(typescript-go [^)]*\): 2 new, 0 fixed, 2 in the file now$/);
    // Before, the directive on line 1 covered the error on line 2; joined into one line, it covers neither.
    expect(lines.slice(3)).toEqual([
      "  + 1:28 error: Unused '@ts-expect-error' directive. (2578)",
      `  + 1:57 error: Property 'foo' does not exist on type '"s"'. (2339)`,
    ]);
  });

  it("says nothing of diagnostics for a file no server has, and starts none for it", async () => {
    const servers = fx.lsp.status().servers.length;
    const out = await fx.tools.text("formatAndSave", { file: "src/unopened.ts", formatter: "prettier" });
    expect(out).toMatch(/^Formatted src\/unopened\.ts with [^:]+: lines 1-1 changed \(1 lines became 1\)\.$/);
    expect(fx.lsp.status().servers.length).toBe(servers);
  });
});
