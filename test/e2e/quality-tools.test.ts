// The quality tools on real checkers in workspaces the tests build: tsc (this repo's, through a
// symlinked node_modules), cargo check and rustfmt when cargo is there, npm ls on a hand-made
// node_modules.
import { readFile, symlink, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Diagnostic } from "../../src/services/diagnostics/diagnostic.ts";
import { tempWorkspaces, type TempWorkspaces } from "../helpers/temp-workspace.ts";
import { missingProgram } from "../helpers/missing-program.ts";
import { dispatcher } from "../helpers/tool-dispatch.ts";

interface Diagnostics {
  diagnostics: Diagnostic[];
  counts: Record<string, number>;
  sources: string[];
  skipped: { source: string; reason: string }[];
}

const REPO = resolve(import.meta.dirname, "../..");
let temp: TempWorkspaces;

beforeAll(async () => {
  temp = await tempWorkspaces("cib-quality-");
});
afterAll(async () => {
  await temp.remove();
});

const workspace = (name: string, files: Record<string, string>) => temp.make(name, files);

const noCargo = missingProgram("cargo", ["--version"]) ?? missingProgram("rustfmt", ["--version"]);
if (noCargo !== undefined) console.log(`cargo/rustfmt tests skipped: ${noCargo}`);

describe("getDiagnostics", () => {
  // 13 s quiet on three test workers.
  it("runs tsc --noEmit for a TypeScript project and reports in the one diagnostic shape", { timeout: 90_000 }, async () => {
    const root = await workspace("ts-project", {
      "tsconfig.json": JSON.stringify({
        compilerOptions: { strict: true, noEmit: true, target: "ES2022", module: "ESNext", moduleResolution: "Bundler", types: [] },
        include: ["src"],
      }),
      "src/bad.ts": 'export const n: number = "text";\n',
      "src/good.ts": "export const m: number = 1;\n",
    });
    await symlink(join(REPO, "node_modules"), join(root, "node_modules"));
    const d = await dispatcher(root);
    const all = await d.data<Diagnostics>("getDiagnostics", {});
    expect(all.sources).toEqual(["tsc"]);
    expect(all.diagnostics).toEqual([
      {
        file: "src/bad.ts",
        line: 1,
        column: 14,
        severity: "error",
        code: "TS2322",
        message: expect.stringMatching(/not assignable to type 'number'/),
        source: "tsc",
      },
    ]);
    expect((await d.data<Diagnostics>("getDiagnostics", { file: "src/good.ts" })).diagnostics).toEqual([]);
    expect((await d.failure("getDiagnostics", { file: "README.md" })).code).toBe("file_not_found");
  });

  it.skipIf(noCargo !== undefined)("runs cargo check for a Rust file", { timeout: 180_000 }, async () => {
    const root = await workspace("rust-check", {
      "Cargo.toml": '[package]\nname = "checked"\nversion = "0.1.0"\nedition = "2021"\n',
      "src/lib.rs": 'pub fn f() -> i32 {\n    let unused = 1;\n    "no"\n}\n',
    });
    const d = await dispatcher(root);
    const report = await d.data<Diagnostics>("getDiagnostics", { file: "src/lib.rs" });
    expect(report.sources).toEqual(["cargo"]);
    expect(report.diagnostics[0]).toMatchObject({ file: "src/lib.rs", line: 3, severity: "error", code: "E0308", source: "cargo" });
    // rustc lints only code that type-checks: with the error fixed, the warning shows.
    await writeFile(join(root, "src/lib.rs"), "pub fn f() -> i32 {\n    let unused = 1;\n    2\n}\n");
    const fixed = await d.data<Diagnostics>("getDiagnostics", {});
    expect(fixed.diagnostics).toContainEqual(
      expect.objectContaining({ file: "src/lib.rs", line: 2, severity: "warning", message: expect.stringMatching(/unused variable/) }),
    );
    const errorsOnly = await d.data<Diagnostics>("getDiagnostics", { severity: "error" });
    expect(errorsOnly).toMatchObject({ diagnostics: [], counts: { error: 0, warning: 1 } });
  });
});

describe.skipIf(noCargo !== undefined)("formatDocument and formatAndSave with rustfmt", () => {
  it("previews, writes, and then finds nothing to do", { timeout: 60_000 }, async () => {
    const messy = 'fn main(){let x=1;println!("{}",x);}\n';
    const root = await workspace("rust-format", {
      "Cargo.toml": '[package]\nname = "fmt"\nversion = "0.1.0"\nedition = "2021"\n',
      "src/main.rs": messy,
    });
    const d = await dispatcher(root);
    const preview = await d.text("formatDocument", { file: "src/main.rs", preview: true });
    expect(preview).toMatch(/would change \(formatter CLIs\)/);
    expect(preview).toContain("+     let x = 1;");
    expect(await readFile(join(root, "src/main.rs"), "utf8")).toBe(messy);
    expect(await d.text("formatAndSave", { file: "src/main.rs" })).toMatch(/^Formatted src\/main.rs/);
    expect(await readFile(join(root, "src/main.rs"), "utf8")).toBe('fn main() {\n    let x = 1;\n    println!("{}", x);\n}\n');
    expect(await d.text("formatDocument", { file: "src/main.rs" })).toMatch(/already formatted/);
    await writeFile(join(root, "src/broken.rs"), "fn main( {\n");
    const broken = await d.failure("formatDocument", { file: "src/broken.rs" });
    expect(broken.code).toBe("tool_failed");
    expect(broken.error).toMatch(/unclosed delimiter/);
    expect((await d.failure("formatDocument", { file: "Cargo.toml" })).code).toBe("not_detected");
  });
});

describe("getDependencyTree", () => {
  it("renders npm ls with missing packages marked", { timeout: 60_000 }, async () => {
    const root = await workspace("npm-tree", {
      "package.json": JSON.stringify({ name: "app", version: "1.0.0", dependencies: { left: "^1.0.0", gone: "^2.0.0" } }),
      "node_modules/left/package.json": JSON.stringify({ name: "left", version: "1.2.0", dependencies: { inner: "^3.0.0" } }),
      "node_modules/inner/package.json": JSON.stringify({ name: "inner", version: "3.1.0" }),
    });
    const d = await dispatcher(root);
    const tree = await d.text("getDependencyTree", { depth: 2 });
    expect(tree).toMatch(/^app@1.0.0\n/);
    expect(tree).toContain("left@1.2.0");
    expect(tree).toContain("inner@3.1.0");
    expect(tree).toMatch(/gone@\^2.0.0 \(MISSING\)/);
  });
});
