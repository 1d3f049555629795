// createFile, deleteFile and renameFile report what they did to the diagnostics of the files a real
// language server (TypeScript's, as the bridge runs it) has: a moved or deleted module's importer
// gains its error, putting the module back fixes it, and a created file's own errors are listed
// when createFile is asked to wait for them (by default it answers at once: pending).
// Nothing is started for this: with no server running, the answers say nothing of diagnostics.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lspFixture, type LspFixture } from "../helpers/lsp-fixture.ts";

const UTIL = "export function double(n: number): number {\n  return n * 2;\n}\n";
const MAIN = 'import { double } from "./util.js";\n\nexport const four: number = double(2);\n';

let fx: LspFixture;

beforeAll(async () => {
  fx = await lspFixture({
    "tsconfig.json": JSON.stringify({ compilerOptions: { strict: true, noEmit: true, module: "nodenext" }, include: ["src"] }),
    "package.json": JSON.stringify({ name: "fixture", type: "module" }),
    "src/util.ts": UTIL,
    "src/main.ts": MAIN,
    "src/other.ts": "export const other: number = 1;\n",
  });
});

afterAll(async () => {
  await fx?.stop();
});

interface Changed {
  diagnostics?: string[];
}

const MISSING = /^ {2}\+ 1:24 error: Cannot find module '\.\/util\.js' or its corresponding type declarations\. \(2307\)$/;

describe("the diagnostics delta of creating, deleting and moving files", () => {
  it("says nothing of diagnostics while no server runs, and starts none", async () => {
    const created = await fx.tools.data<Changed>("createFile", { filePath: "src/early.ts", content: 'export const e: number = "x";\n' });
    const moved = await fx.tools.data<Changed>("renameFile", { oldPath: "src/early.ts", newPath: "src/early2.ts" });
    const deleted = await fx.tools.data<Changed>("deleteFile", { filePath: "src/early2.ts", useTrash: false });
    expect([created.diagnostics, moved.diagnostics, deleted.diagnostics]).toEqual([undefined, undefined, undefined]);
    expect(fx.lsp.status().servers).toEqual([]);
  });

  it("a moved module's importer gains its error, and moving it back fixes it", async () => {
    // The server has main.ts (and other.ts) open; util.ts it only knows through main.ts's import.
    await fx.tools.call("getDocumentSymbols", { file: "src/main.ts" });
    await fx.tools.call("getDocumentSymbols", { file: "src/other.ts" });
    const moved = await fx.tools.data<Changed>("renameFile", { oldPath: "src/util.ts", newPath: "src/lib/util.ts" });
    expect(moved.diagnostics?.[0]).toMatch(/^src\/lib\/util\.ts \(typescript-go [^)]*\): unchanged, 0 in the file$/);
    expect(moved.diagnostics?.[1]).toMatch(/^src\/main\.ts \(typescript-go [^)]*\): 1 new, 0 fixed, 1 in the file now$/);
    expect(moved.diagnostics?.[2]).toMatch(MISSING);
    expect(moved.diagnostics?.slice(3)).toEqual([
      expect.stringMatching(/^1 other file the language server has: unchanged \(typescript-go /),
    ]);
    const back = await fx.tools.data<Changed>("renameFile", { oldPath: "src/lib/util.ts", newPath: "src/util.ts" });
    expect(back.diagnostics).toContainEqual(expect.stringMatching(/^src\/main\.ts \([^)]*\): 0 new, 1 fixed, 0 in the file now$/));
    expect(back.diagnostics).toContainEqual(expect.stringMatching(/^ {2}- error: Cannot find module '\.\/util\.js'/));
  });

  it("a deleted module's importer gains its error; creating it again fixes it", async () => {
    const deleted = await fx.tools.data<Changed & { trashPath?: string }>("deleteFile", { filePath: "src/util.ts" });
    expect(deleted.trashPath).toBeDefined();
    expect(deleted.diagnostics?.[0]).toMatch(/^src\/main\.ts \(typescript-go [^)]*\): 1 new, 0 fixed, 1 in the file now$/);
    expect(deleted.diagnostics?.[1]).toMatch(MISSING);
    const created = await fx.tools.data<Changed>("createFile", { filePath: "src/util.ts", content: UTIL, waitForDiagnostics: true });
    expect(created.diagnostics?.[0]).toMatch(/^src\/util\.ts \([^)]*\): unchanged, 0 in the file$/);
    expect(created.diagnostics).toContainEqual(expect.stringMatching(/^src\/main\.ts \([^)]*\): 0 new, 1 fixed, 0 in the file now$/));
    expect(await readFile(join(fx.root, "src/util.ts"), "utf8")).toBe(UTIL);
  });

  it("a moved directory's importer gains its error; the files the server had in it keep theirs under the new name", async () => {
    await fx.write("src/shapes/square.ts", "export const side: number = 2;\n");
    await fx.write("src/area.ts", 'import { side } from "./shapes/square.js";\n\nexport const area: number = side * side;\n');
    await fx.tools.call("getDocumentSymbols", { file: "src/area.ts" });
    await fx.tools.call("getDocumentSymbols", { file: "src/shapes/square.ts" });
    const moved = await fx.tools.data<Changed>("renameFile", { oldPath: "src/shapes", newPath: "src/geometry" });
    expect(moved.diagnostics).toContainEqual(expect.stringMatching(/^src\/area\.ts \([^)]*\): 1 new, 0 fixed, 1 in the file now$/));
    expect(moved.diagnostics).toContainEqual(
      "  + 1:22 error: Cannot find module './shapes/square.js' or its corresponding type declarations. (2307)",
    );
    // square.ts itself (now src/geometry/square.ts) has no error before or after: it is among the unchanged.
    expect(moved.diagnostics?.at(-1)).toMatch(/^\d+ other files? the language server has: unchanged/);
    expect(moved.diagnostics?.join("\n")).not.toMatch(/square\.ts \(/);
  });

  it("a created file with a type error lists it when asked to wait, and is pending by default", async () => {
    const pending = await fx.tools.data<Changed>("createFile", { filePath: "src/later.ts", content: 'export const n: number = "one";\n' });
    expect(pending.diagnostics).toEqual([
      'pending (not waited for): getDiagnostics with file "src/later.ts" checks it, without file the files that use it; or pass waitForDiagnostics',
    ]);
    const created = await fx.tools.data<Changed>("createFile", {
      filePath: "src/bad.ts",
      content: 'export const n: number = "one";\n',
      waitForDiagnostics: true,
    });
    expect(created.diagnostics?.slice(0, 2)).toEqual([
      expect.stringMatching(/^src\/bad\.ts \(typescript-go [^)]*\): 1 new, 0 fixed, 1 in the file now$/),
      "  + 1:14 error: Type 'string' is not assignable to type 'number'. (2322)",
    ]);
  });
});
