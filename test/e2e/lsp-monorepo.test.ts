// A monorepo (npm workspaces: two TypeScript packages with tsconfigs of their own, one importing
// the other, and a plain JavaScript package without one) against real TypeScript 7: one server for
// the workspace folder serves every package, the first answer about a package's export reaches the
// other package's uses before it says complete (the server, not a cross-check, found them), and
// each package is checked by its own tsconfig (strict in one, not in the other) and formatted in its
// own style (its .editorconfig, not the folder's).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lspFixture, type LspFixture } from "../helpers/lsp-fixture.ts";

const options = (strict: boolean, extra: Record<string, unknown> = {}) => ({
  compilerOptions: { strict, target: "es2022", module: "preserve", moduleResolution: "bundler", noEmit: true, types: [], ...extra },
  include: ["src"],
});

const MONOREPO: Record<string, string> = {
  "package.json": JSON.stringify({ name: "mono", private: true, workspaces: ["packages/*"] }),
  "packages/core/package.json": JSON.stringify({ name: "@mono/core", types: "./src/index.ts" }),
  "packages/core/tsconfig.json": JSON.stringify(options(true)),
  "packages/core/src/index.ts": [
    "export function greet(name: string): string {",
    "  return `hello ${name}`;",
    "}",
    "export function untyped(value) {",
    "  return value;",
    "}",
    "",
  ].join("\n"),
  "packages/app/package.json": JSON.stringify({ name: "@mono/app", dependencies: { "@mono/core": "*" } }),
  "packages/app/tsconfig.json": JSON.stringify(options(false, { paths: { "@mono/core": ["../core/src/index.ts"] } })),
  "packages/app/src/main.ts": [
    'import { greet } from "@mono/core";',
    "export function loose(value) {",
    "  return greet(value);",
    "}",
    'export const count: number = "three";',
    "",
  ].join("\n"),
  // The folder's style says 8-space indents; app's own .editorconfig says 2.
  ".editorconfig": "root = true\n\n[*]\nindent_style = space\nindent_size = 8\n",
  "packages/app/.editorconfig": "root = true\n\n[*]\nindent_style = space\nindent_size = 2\n",
  "packages/app/src/format-me.ts": "export function one(): number {\nreturn 1;\n}\n",
  "packages/plain/package.json": JSON.stringify({ name: "@mono/plain" }),
  "packages/plain/index.js": ["// @ts-check", "/** @type {number} */", 'export const size = "big";', ""].join("\n"),
};

let fx: LspFixture;

beforeAll(async () => {
  fx = await lspFixture(MONOREPO);
});

afterAll(async () => {
  await fx?.stop();
});

/** A file's errors as line:code (a loose config's implicit any is only a suggestion, 7044). */
const codes = async (file: string) =>
  (await fx.lsp.diagnosticsFor(file, { signal: AbortSignal.timeout(120_000) })).items
    .filter((d) => d.severity === 1)
    .map((d) => `${d.range.start.line + 1}:${d.code}`);

/** The roots of the TypeScript 7 servers the pool has (running or not). */
const tsgoRoots = () =>
  fx.lsp
    .status()
    .servers.filter((s) => s.id === "tsgo")
    .map((s) => s.root);

describe("one TypeScript server for a monorepo's workspace folder", () => {
  it("the server's own first answer, before any cross-check, covers app's project, and so earns complete", async () => {
    const doc = await fx.lsp.document("packages/core/src/index.ts", {
      method: "textDocument/references",
      signal: AbortSignal.timeout(120_000),
    });
    const answer = await doc.wholeProject<{ uri: string }[] | null>("textDocument/references", {
      textDocument: { uri: doc.uri },
      position: { line: 0, character: "export function ".length },
      context: { includeDeclaration: true },
    });
    const files = new Set((answer.value ?? []).map((l) => l.uri.slice(`file://${fx.root}/`.length)));
    expect(answer).toMatchObject({ complete: true });
    expect([...files].sort()).toEqual(["packages/app/src/main.ts", "packages/core/src/index.ts"]);
  }, 180_000);

  it("a first findReferences of core's export includes app's uses, says complete, and one server answered for both packages", async () => {
    const text = await fx.tools.text("findReferences", {
      file: "packages/core/src/index.ts",
      line: 1,
      symbol: "greet",
      verbosity: "minimal",
    });
    expect(text).toBe(
      [
        "3 references to `greet` in 2 files (complete):",
        "packages/app/src/main.ts:1:10",
        "packages/app/src/main.ts:3:10",
        "packages/core/src/index.ts:1:17",
      ].join("\n"),
    );
    expect(tsgoRoots()).toEqual([fx.root]);
  }, 180_000);

  it("each package is checked by its own tsconfig: strict core reports an implicit any, loose app does not but reports its own error", async () => {
    expect(await codes("packages/core/src/index.ts")).toEqual(["4:7006"]);
    expect(await codes("packages/app/src/main.ts")).toEqual(["5:2322"]);
  }, 180_000);

  it("formats a package's file in that package's style, not the folder's, though one server serves both", async () => {
    // formatRange asks the language server (formatDocument would take a formatter CLI first).
    const preview = await fx.tools.text("formatRange", { file: "packages/app/src/format-me.ts", startLine: 1, endLine: 3, dryRun: true });
    expect(preview).toContain("\n+  return 1;\n");
    expect(preview).not.toContain("+        return 1;");
  }, 180_000);

  it("a package with a package.json and no tsconfig (plain JavaScript under // @ts-check) still gets its diagnostics", async () => {
    expect(await codes("packages/plain/index.js")).toEqual(["3:2322"]);
    expect(tsgoRoots()).toEqual([fx.root]);
  }, 180_000);
});
