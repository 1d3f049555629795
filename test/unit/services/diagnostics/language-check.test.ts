// What an edit's check by the language's own checker adds to its error delta
// (src/services/diagnostics/language-check.ts, edit-check.ts): errors by file and message, lines
// aside (an edit moves them), each as many times as it occurs; and go's checks run in the
// environment that keeps go from running a program.
import { describe, expect, it } from "vitest";
import type { Diagnostic } from "../../../../src/services/diagnostics/diagnostic.ts";
import { checkDelta, type LanguageCheck, languageChecker } from "../../../../src/services/diagnostics/language-check.ts";

const error = (file: string, line: number, message: string): Diagnostic => ({
  file,
  line,
  column: 1,
  severity: "error",
  message,
  source: "pyright",
});
const run = (...errors: Diagnostic[]): LanguageCheck => ({ checker: "pyright (CLI)", errors, files: 3, notChecked: 0 });

describe("checkDelta", () => {
  it("counts an error that only moved as unchanged, and a second copy of one as new", () => {
    const before = run(error("a.py", 3, "x is not defined"), error("b.py", 1, "old"));
    const after = run(error("a.py", 9, "x is not defined"), error("a.py", 12, "x is not defined"), error("c.py", 2, "y is not callable"));
    const delta = checkDelta(before, after);
    expect(delta.introduced.map((d) => `${d.file}:${d.line}`)).toEqual(["a.py:12", "c.py:2"]);
    expect(delta.fixed.map((d) => `${d.file}:${d.line}`)).toEqual(["b.py:1"]);
  });

  it("is empty when nothing changed", () => {
    const same = run(error("a.py", 3, "x is not defined"));
    expect(checkDelta(same, same)).toEqual({ introduced: [], fixed: [] });
  });
});

describe("languageChecker", () => {
  it("checks Python files by name (so a config's include cannot leave them out) and Go by module", () => {
    expect(languageChecker("python")?.args(["tests/test_a.py"])).toEqual(["--outputjson", "./tests/test_a.py"]);
    expect(languageChecker("go")?.args([])).toEqual(["vet", "./..."]);
    expect(languageChecker("c")).toBeUndefined();
  });

  it("runs go with cgo, toolchain switching, module fetches, go's env file and VCS stamping off", () => {
    expect(languageChecker("go")?.env).toEqual({
      CGO_ENABLED: "0",
      GOFLAGS: "-buildvcs=false",
      GOENV: "off",
      GOTOOLCHAIN: "local",
      GOPROXY: "off",
    });
  });

  it("reads go vet's type errors and findings as errors, relative to where it ran", async () => {
    const stderr = "# example.com/cli/cmd0\nvet: cmd0/cmd.go:8:29: undefined: core.ParseFlag\n";
    const found = await languageChecker("go")?.parse("", stderr, "/w/mod");
    expect(found).toEqual([
      { file: "cmd0/cmd.go", line: 8, column: 29, severity: "error", message: "undefined: core.ParseFlag", source: "go vet" },
    ]);
  });
});
