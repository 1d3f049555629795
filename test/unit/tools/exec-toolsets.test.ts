// The commands and quality toolsets: their tool names pinned, and which answer in plain text
// (command output, HTTP responses, trees, format summaries: Claude Code would show only the JSON of
// structured content) and which as data (test results, diagnostics, coverage, audits).
import { describe, expect, it } from "vitest";
import { ToolRegistry } from "../../../src/tools/platform/registry.ts";
import { TOOLSETS } from "../../../src/tools/toolsets.ts";

const registry = new ToolRegistry(TOOLSETS, { slim: false, maxResultChars: 512 * 1024 });
const names = (set: string) => TOOLSETS.find((t) => t.name === set)?.tools.map((t) => t.name);
// Data payloads are the tools with an output schema (not listed, but checked by the dispatcher).
const structured = new Set(
  registry
    .entries()
    .filter((e) => registry.get(e.name)?.output !== undefined)
    .map((e) => e.name),
);

describe("the commands and quality toolsets", () => {
  it("hold these tools", () => {
    expect(names("commands")).toEqual(["runCommand", "runInTerminal", "runTests", "getCodeCoverage", "sendHttpRequest", "parseHttpFile"]);
    expect(names("quality")).toEqual([
      "getDiagnostics",
      "fixAllLintErrors",
      "formatDocument",
      "formatAndSave",
      "auditDependencies",
      "getSecurityAdvisories",
      "getDependencyTree",
    ]);
  });

  it("answer text payloads as text and data payloads as data", () => {
    for (const name of ["runCommand", "runInTerminal", "sendHttpRequest", "formatDocument", "formatAndSave", "getDependencyTree"])
      expect(structured.has(name), name).toBe(false);
    for (const name of ["runTests", "getCodeCoverage", "parseHttpFile", "getDiagnostics", "fixAllLintErrors", "auditDependencies"])
      expect(structured.has(name), name).toBe(true);
  });

  it("let long runs take minutes, past the default --timeout", () => {
    for (const name of ["runCommand", "runInTerminal", "runTests", "getDiagnostics", "auditDependencies"]) {
      expect(TOOLSETS.flatMap((t) => t.tools).find((t) => t.name === name)?.timeoutMs, name).toBeGreaterThanOrEqual(120_000);
    }
  });
});
