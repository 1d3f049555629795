// getDiagnostics merges its backends: a language server's type errors and a linter's findings in
// one answer, with the type-checking CLI (tsc) left out once the server checked the types. Real
// TypeScript server (as the bridge runs it) and the real eslint of this repository's devDependencies,
// linked into the fixture's node_modules/.bin as a project installs it.
import { mkdir, symlink } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lspFixture, type LspFixture } from "../helpers/lsp-fixture.ts";

const ESLINT = fileURLToPath(new URL("../../node_modules/eslint/bin/eslint.js", import.meta.url));

interface Result {
  diagnostics: { file: string; line: number; severity: string; message: string; source: string; code?: string }[];
  sources: string[];
  skipped: { source: string; reason: string }[];
}

let fx: LspFixture;

beforeAll(async () => {
  fx = await lspFixture({
    "package.json": JSON.stringify({ name: "merge", private: true, type: "module", devDependencies: { eslint: "9", typescript: "5" } }),
    "tsconfig.json": JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, allowJs: true, module: "nodenext" },
      include: ["src"],
    }),
    "eslint.config.js": 'export default [{ files: ["**/*.js"], rules: { "no-unused-vars": "error" } }];\n',
    "src/a.ts": 'export const n: number = "one";\n',
    "src/c.js": "const unused = 1;\nexport const used = 2;\n",
  });
  await mkdir(join(fx.root, "node_modules", ".bin"), { recursive: true });
  await symlink(ESLINT, join(fx.root, "node_modules", ".bin", "eslint"));
}, 60_000);

afterAll(async () => {
  await fx?.stop();
});

describe("getDiagnostics from a language server and a linter together", () => {
  it("reports the server's type error and eslint's finding for the workspace, without running tsc", { timeout: 120_000 }, async () => {
    const out = await fx.tools.data<Result>("getDiagnostics");
    expect(
      out.sources.some((s) => /typescript|tsc --lsp/i.test(s)),
      out.sources.join(),
    ).toBe(true);
    expect(out.sources).toContain("eslint");
    expect(out.sources).not.toContain("tsc");
    expect(out.diagnostics).toContainEqual(
      expect.objectContaining({
        file: "src/a.ts",
        line: 1,
        severity: "error",
        message: expect.stringMatching(/not assignable to type 'number'/),
      }),
    );
    expect(out.diagnostics).toContainEqual(
      expect.objectContaining({
        file: "src/c.js",
        line: 1,
        severity: "error",
        source: "eslint",
        message: expect.stringMatching(/'unused' is assigned a value but never used/),
      }),
    );
  });

  it("does the same for one file", { timeout: 120_000 }, async () => {
    const js = await fx.tools.data<Result>("getDiagnostics", { file: "src/c.js" });
    expect(js.sources).toContain("eslint");
    expect(js.diagnostics.filter((d) => d.source === "eslint").map((d) => d.line)).toEqual([1]);
    const ts = await fx.tools.data<Result>("getDiagnostics", { file: "src/a.ts" });
    // eslint is asked for TypeScript files too; this project's config lints only .js.
    expect(ts.sources).not.toContain("tsc");
    expect(ts.diagnostics.map((d) => [d.file, d.source === "eslint"])).toEqual([["src/a.ts", false]]);
  });
});
