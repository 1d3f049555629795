// A first test file for a source file's exports, in the framework and style detectTestStyle found:
// per export one test that holds now (it is exported, of the right kind), so the file compiles and
// runs green, and one pending test naming its signature, for the behaviour to be written.
import { dirname, relative } from "../../lib/paths/posix-path.ts";
import type { TestStyle } from "./test-framework.ts";

export interface Subject {
  name: string;
  /** "function" (functions, classes), "value" (constants, variables) or "type" (Go types: no value to name). */
  kind: "function" | "value" | "type";
  signature: string;
}

/** `source`: the root-relative file tested; `goPackage` and `pythonModule`: how the test names it in those languages. */
export function scaffold(
  style: TestStyle,
  subjects: readonly Subject[],
  opts: { source: string; goPackage?: string; pythonModule?: string },
): string {
  const { source } = opts;
  if (style.framework === "pytest") return pytestScaffold(opts.pythonModule ?? source.replace(/\.py$/, "").replaceAll("/", "."), subjects);
  if (style.framework === "go test") return goScaffold(opts.goPackage ?? "main", subjects);
  return jsScaffold(style, source, subjects);
}

function jsScaffold(style: TestStyle, source: string, subjects: readonly Subject[]): string {
  const q = (s: string) => `${style.quote}${s.replaceAll("\\", "\\\\").replaceAll(style.quote, `\\${style.quote}`)}${style.quote}`;
  const end = style.semicolons ? ";" : "";
  let spec = relative(dirname(style.testFile), source).replace(/\.[cm]?[jt]sx?$/, style.importExtension);
  if (!spec.startsWith(".")) spec = `./${spec}`;
  const head: string[] = [];
  const pending = style.framework === "mocha" ? (title: string) => `it(${q(title)})` : (title: string) => `it.todo(${q(title)})`;
  if (style.framework === "vitest" && style.importsGlobals) head.push(`import { describe, expect, it } from ${q("vitest")}${end}`);
  if (style.framework === "jest" && style.importsGlobals) head.push(`import { describe, expect, it } from ${q("@jest/globals")}${end}`);
  if (style.framework === "node:test") head.push(`import { describe, it } from ${q("node:test")}${end}`);
  const assertStyle = style.framework === "node:test" || style.framework === "mocha";
  if (assertStyle) head.push(`import assert from ${q("node:assert/strict")}${end}`);
  head.push(`import { ${subjects.map((s) => s.name).join(", ")} } from ${q(spec)}${end}`);
  const blocks = subjects.map((s) => {
    const check =
      s.kind === "function"
        ? assertStyle
          ? `assert.equal(typeof ${s.name}, ${q("function")})`
          : `expect(typeof ${s.name}).toBe(${q("function")})`
        : assertStyle
          ? `assert.notEqual(${s.name}, undefined)`
          : `expect(${s.name}).toBeDefined()`;
    return [
      `describe(${q(s.name)}, () => {`,
      `  it(${q(s.kind === "function" ? "is exported as a function" : "is exported")}, () => {`,
      `    ${check}${end}`,
      `  })${end}`,
      `  ${pending(`TODO: ${oneLine(s.signature)}`)}${end}`,
      `})${end}`,
    ].join("\n");
  });
  return `${head.join("\n")}\n\n${blocks.join("\n\n")}\n`;
}

function pytestScaffold(module: string, subjects: readonly Subject[]): string {
  const out = ["import pytest", "", `from ${module} import ${subjects.map((s) => s.name).join(", ")}`, ""];
  for (const s of subjects) {
    const test = s.name
      .replace(/^_+/, "")
      .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
      .toLowerCase();
    out.push(
      "",
      `def test_${test}_is_exported():`,
      `    assert ${s.kind === "function" ? `callable(${s.name})` : `${s.name} is not None`}`,
      "",
      "",
      `@pytest.mark.skip(reason=${JSON.stringify(`TODO: ${oneLine(s.signature)}`)})`,
      `def test_${test}():`,
      "    ...",
      "",
    );
  }
  return `${out.join("\n").replace(/\n{4,}/g, "\n\n\n")}`;
}

function goScaffold(pkg: string, subjects: readonly Subject[]): string {
  const out = [`package ${pkg}`, "", 'import "testing"'];
  for (const s of subjects) {
    const name = s.name.charAt(0).toUpperCase() + s.name.slice(1);
    out.push(
      "",
      `func Test${name}(t *testing.T) {`,
      // Naming it makes the test stop compiling if the export goes away.
      s.kind === "type" ? `\tvar _ ${s.name}` : `\t_ = ${s.name}`,
      `\tt.Skip(${JSON.stringify(`TODO: ${oneLine(s.signature)}`)})`,
      "}",
    );
  }
  return `${out.join("\n")}\n`;
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 120 ? `${flat.slice(0, 117)}...` : flat;
}
