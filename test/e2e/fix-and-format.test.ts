// fixAllLintErrors and the formatter CLIs on the real programs, in workspaces the tests build:
// eslint 9 and prettier 3 from this repo's node_modules (symlinked in), and gofmt when go is
// installed. What they change is read back from the files; what is left comes back as diagnostics.
import { readFile, symlink } from "node:fs/promises";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Diagnostic } from "../../src/services/diagnostics/diagnostic.ts";
import { tempWorkspaces, type TempWorkspaces } from "../helpers/temp-workspace.ts";
import { missingProgram } from "../helpers/missing-program.ts";
import { dispatcher } from "../helpers/tool-dispatch.ts";

const REPO = resolve(import.meta.dirname, "../..");
let temp: TempWorkspaces;
beforeAll(async () => {
  temp = await tempWorkspaces("cib-fix-format-");
});
afterAll(async () => {
  await temp.remove();
});

async function nodeProject(name: string, files: Record<string, string>): Promise<string> {
  const root = await temp.make(name, files);
  await symlink(join(REPO, "node_modules"), join(root, "node_modules"));
  return root;
}

describe("fixAllLintErrors with eslint", () => {
  it("applies eslint's fixes to the file and lists what only a person can fix", { timeout: 120_000 }, async () => {
    const root = await nodeProject("eslint-fix", {
      "package.json": JSON.stringify({ name: "e", type: "module", devDependencies: { eslint: "*" } }),
      "eslint.config.js":
        'export default [{ files: ["**/*.js"], rules: { "prefer-const": "error", "no-unused-vars": "error", eqeqeq: "warn" } }];\n',
      "src/a.js": "let total = 1;\nlet unused = 2;\nif (total == 1) console.log(total);\n",
    });
    const d = await dispatcher(root);
    const result = await d.data<{ diagnostics: Diagnostic[]; sources: string[] }>("fixAllLintErrors", { file: "src/a.js" });
    expect(await readFile(join(root, "src/a.js"), "utf8")).toBe(
      "const total = 1;\nconst unused = 2;\nif (total == 1) console.log(total);\n",
    );
    expect(result.sources).toEqual(["eslint"]);
    expect(result.diagnostics.map((x) => [x.line, x.code, x.severity])).toEqual([
      [2, "no-unused-vars", "error"],
      [3, "eqeqeq", "warning"],
    ]);
  });

  it("says so when the project has no linter that fixes", async () => {
    const root = await temp.make("no-linter", { "package.json": JSON.stringify({ name: "n" }), "a.js": "let a = 1;\n" });
    const d = await dispatcher(root);
    expect((await d.failure("fixAllLintErrors", {})).code).toBe("not_detected");
  });
});

describe("formatDocument and formatAndSave with prettier", () => {
  it("previews prettier's change, writes it, and then finds nothing to do", { timeout: 120_000 }, async () => {
    const messy = "const point = {x:1,y:2}\nfunction  add(a,b){return a+b}\n";
    const root = await nodeProject("prettier-format", {
      "package.json": JSON.stringify({ name: "p", devDependencies: { prettier: "*" } }),
      "src/point.js": messy,
    });
    const d = await dispatcher(root);
    const preview = await d.text("formatDocument", { file: "src/point.js", preview: true });
    expect(preview).toContain("+ const point = { x: 1, y: 2 };");
    expect(await readFile(join(root, "src/point.js"), "utf8")).toBe(messy);
    expect(await d.text("formatAndSave", { file: "src/point.js" })).toMatch(/^Formatted src\/point.js/);
    expect(await readFile(join(root, "src/point.js"), "utf8")).toBe(
      "const point = { x: 1, y: 2 };\nfunction add(a, b) {\n  return a + b;\n}\n",
    );
    expect(await d.text("formatDocument", { file: "src/point.js" })).toMatch(/already formatted/);
  });
});

const noGofmt = missingProgram("gofmt", [], "package x\n");
describe.skipIf(noGofmt !== undefined)(`formatAndSave with gofmt${noGofmt === undefined ? "" : ` (skipped: ${noGofmt})`}`, () => {
  it("formats a Go file with the language's own formatter", { timeout: 60_000 }, async () => {
    const root = await temp.make("gofmt-format", {
      "go.mod": "module example.com/f\n\ngo 1.19\n",
      "main.go": 'package main\nimport "fmt"\nfunc main(){fmt.Println( 1 )}\n',
    });
    const d = await dispatcher(root);
    expect(await d.text("formatAndSave", { file: "main.go" })).toMatch(/^Formatted main.go/);
    expect(await readFile(join(root, "main.go"), "utf8")).toBe('package main\n\nimport "fmt"\n\nfunc main() { fmt.Println(1) }\n');
  });
});
