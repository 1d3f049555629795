// Edits from TypeScript's server keep the project's style: organize imports and an add-import quick
// fix in a project whose prettier config says no semicolons and single quotes, and whose
// .editorconfig says 2 spaces, write what the project's formatter would; a change of the config
// while the server runs is followed. Without the style the server writes `;` and double quotes.
// formatRange takes its indentation from .editorconfig, over the file's own (8 spaces here).
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lspFixture, type LspFixture } from "../helpers/lsp-fixture.ts";

const PROJECT = {
  "tsconfig.json": JSON.stringify({ compilerOptions: { strict: true, module: "esnext", target: "es2022", moduleResolution: "bundler" } }),
  "package.json": JSON.stringify({ name: "styled", private: true, type: "module" }),
  ".prettierrc": JSON.stringify({ semi: false, singleQuote: true }),
  ".editorconfig": ["root = true", "", "[*]", "indent_style = space", "indent_size = 2", ""].join("\n"),
  "src/b.ts": ["export const beta = 1", "export const alpha = 2", ""].join("\n"),
  "src/c.ts": ["export const gamma = 3", ""].join("\n"),
  "src/a.ts": ["import { beta, alpha } from './b'", "import { gamma } from './c'", "", "export const sum = alpha + beta", ""].join("\n"),
  "src/d.ts": ["export const twice = gamma * 2", ""].join("\n"),
  "src/e.ts": ["export const thrice = gamma * 3", ""].join("\n"),
  // Indented by 8 where the project says 2: the file's own lines would have the server keep 8.
  "src/f.ts": [
    "export function f(n: number): number {",
    "        if (n > 1) {",
    "                return n",
    "        }",
    "        return 0",
    "}",
    "",
  ].join("\n"),
};

describe("edits keep the project's style", () => {
  let fx: LspFixture;
  const read = (path: string) => readFile(join(fx.root, path), "utf8");

  beforeAll(async () => {
    fx = await lspFixture(PROJECT);
  });

  afterAll(async () => {
    await fx?.stop();
  });

  it("organizeImports writes no semicolon and keeps single quotes (prettier: semi false, singleQuote)", async () => {
    const done = await fx.tools.text("organizeImports", { file: "src/a.ts" });
    expect(done.split("\n")[0]).toBe("Organized the imports of src/a.ts: 1 file written together.");
    expect(await read("src/a.ts")).toBe(["import { alpha, beta } from './b'", "", "export const sum = alpha + beta", ""].join("\n"));
  });

  it("an add-import quick fix writes the import in the project's quotes and without a semicolon", async () => {
    const applied = await fx.tools.text("applyCodeAction", { file: "src/d.ts", startLine: 1, title: "add import" });
    expect(applied.split("\n")[0]).toMatch(/^Applied "Add import from "\.\/c"": 1 file written together\.$/);
    expect(await read("src/d.ts")).toBe(["import { gamma } from './c'", "", "export const twice = gamma * 2", ""].join("\n"));
  });

  it("formatRange indents as .editorconfig says, not as the file's own lines suggest", async () => {
    const done = await fx.tools.text("formatRange", { file: "src/f.ts", startLine: 1, endLine: 6 });
    expect(done.split("\n")[0]).toMatch(/^Formatted lines 1-6 of src\/f\.ts/);
    expect(await read("src/f.ts")).toBe(
      ["export function f(n: number): number {", "  if (n > 1) {", "    return n", "  }", "  return 0", "}", ""].join("\n"),
    );
  });

  it("follows a change of the formatter config while the server runs", async () => {
    await writeFile(join(fx.root, ".prettierrc"), JSON.stringify({ semi: true, singleQuote: false }));
    // The watcher hears of the change and the server is told; the quick fix is asked until it shows.
    let text = "";
    for (let attempt = 0; attempt < 100 && !text.includes(";"); attempt++) {
      const preview = await fx.tools.text("previewCodeAction", { file: "src/e.ts", startLine: 1, title: "add import" });
      text = preview.split("\n").find((line) => line.startsWith("+import")) ?? "";
    }
    expect(text).toBe('+import { gamma } from "./c";');
  });
});
