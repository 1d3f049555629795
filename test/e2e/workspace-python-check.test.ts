// Whole-workspace and directory getDiagnostics of Python through pyright's command line
// (src/services/diagnostics/python-project-check.ts), on a project shaped like a CLI library whose
// pyright `include` covers src/ only (test/fixtures/lsp-repos.ts): the files are named on the
// command line, so a test file's error outside `include` is reported, as `pyright tests/...` in CI
// reports it, and the language server is not asked again for the files the CLI checked.
import { afterAll, beforeAll, expect, it } from "vitest";
import { checkPythonFiles } from "../../src/services/diagnostics/python-project-check.ts";
import { pythonRepo } from "../fixtures/lsp-repos.ts";
import { lspFixture, type LspFixture } from "../helpers/lsp-fixture.ts";
import { makeToolContext } from "../helpers/tool-context.ts";

interface Result {
  diagnostics: { file: string; line: number; severity: string; code?: string; source: string }[];
  sources: string[];
  partial?: string;
}

let fx: LspFixture;
beforeAll(async () => {
  const files = { ...pythonRepo(2).files };
  files["tests/test_plugin1.py"] = `${files["tests/test_plugin1.py"]}\n\nwrong: int = "not a number"\n`;
  files["src/clilib/plugin0.py"] = `${files["src/clilib/plugin0.py"]}\n\ncount: int = echo("x")\n`;
  fx = await lspFixture(files);
}, 60_000);
afterAll(async () => {
  await fx?.stop();
});

const errors = (r: Result) => r.diagnostics.filter((d) => d.severity === "error").map((d) => `${d.file}:${d.line} ${d.source}`);

it("checks every Python file with pyright's CLI, those outside the config's include too, and no file again in the server", async () => {
  const all = await fx.tools.data<Result>("getDiagnostics", {});
  expect(all.sources).toEqual(["pyright (CLI)"]);
  expect(errors(all).sort()).toEqual(["src/clilib/plugin0.py:8 pyright (CLI)", "tests/test_plugin1.py:11 pyright (CLI)"]);
  expect(all.diagnostics.find((d) => d.file === "tests/test_plugin1.py")?.code).toBe("reportAssignmentType");
  expect(all.partial).toBeUndefined();
  // Its files were all checked by the CLI: no Python server was started for them.
  expect(fx.lsp.status().servers.filter((s) => s.id === "pyright")).toEqual([]);
  const tests = await fx.tools.data<Result>("getDiagnostics", { file: "tests" });
  expect(errors(tests)).toEqual(["tests/test_plugin1.py:11 pyright (CLI)"]);
}, 120_000);

it("past the call's deadline, says how many files it did not check and reports none as checked", async () => {
  const ctx = await makeToolContext(fx.root, { executables: ["rg"] });
  const spent = await checkPythonFiles(ctx, { under: undefined, deadline: Date.now() });
  expect(spent.checked.size).toBe(0);
  expect(spent.partial).toMatch(/before pyright checked 6 Python file\(s\)/);
}, 60_000);
