// getCodeCoverage on reports real runners wrote in workspaces the tests build: node --test's lcov
// reporter and go test's cover profile (skipped with the reason when go is missing). Then a report
// of tens of megabytes, which must be read while the event loop keeps turning: the longest gap
// between timer ticks is compared with the whole call, in the same run.
import { execFileSync } from "node:child_process";
import { symlink } from "node:fs/promises";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempWorkspaces, type TempWorkspaces } from "../helpers/temp-workspace.ts";
import { measureTurns } from "../helpers/event-loop-turns.ts";
import { missingProgram } from "../helpers/missing-program.ts";
import { dispatcher } from "../helpers/tool-dispatch.ts";

interface Coverage {
  report: string;
  format: string;
  totals: { covered: number; total: number; percent: number };
  files: { file: string; covered: number; total: number; percent: number; uncovered?: string }[];
  filesOmitted?: number;
}

let temp: TempWorkspaces;
beforeAll(async () => {
  temp = await tempWorkspaces("cib-coverage-");
});
afterAll(async () => {
  await temp.remove();
});

const REPO = resolve(import.meta.dirname, "../..");

describe("getCodeCoverage", () => {
  it("reads the report where the project's jest config sends it, and says which setting named it", { timeout: 120_000 }, async () => {
    const root = await temp.make("jest-dir", {
      "jest.config.js": 'module.exports = { coverageDirectory: "reports/cov", coverageReporters: ["lcov", "json"] };\n',
      "sum.js": "exports.sum = (a, b) => a + b;\nexports.never = () => {\n  return 0;\n};\n",
      "sum.test.js": 'const { sum } = require("./sum");\ntest("adds", () => {\n  expect(sum(1, 2)).toBe(3);\n});\n',
    });
    await symlink(join(REPO, "node_modules"), join(root, "node_modules"));
    execFileSync(join(REPO, "node_modules", ".bin", "jest"), ["--coverage", "--ci", "--watchman=false"], { cwd: root, stdio: "ignore" });
    const d = await dispatcher(root);
    const cov = await d.data<Coverage & { namedBy?: string; otherReports?: string[] }>("getCodeCoverage", {});
    expect(cov.namedBy).toBe("jest.config.js coverageDirectory");
    expect([cov.report, ...(cov.otherReports ?? [])].sort()).toEqual(["reports/cov/coverage-final.json", "reports/cov/lcov.info"]);
    expect(cov.files.find((f) => f.file === "sum.js")).toMatchObject({ uncovered: "3" });
  });

  it("with no report, says where it looked (the config's place too), what is there, and how to write one", async () => {
    const root = await temp.make("html-only", {
      "vitest.config.ts": 'export default { test: { coverage: { reportsDirectory: "./out/coverage", reporter: ["html"] } } };\n',
      "out/coverage/index.html": "<html></html>\n",
    });
    const d = await dispatcher(root);
    const failure = await d.failure("getCodeCoverage", {});
    expect(failure.code).toBe("not_detected");
    expect(failure.error).toContain("out/coverage/ holds index.html: no report in a format read here");
    expect(failure.error).toContain("vitest.config.ts reportsDirectory: out/coverage");
    expect(failure.error).toContain("out/coverage/lcov.info");
    expect(failure.suggestion).toContain("this project's config sends them to out/coverage/");
  });

  it("reads the lcov report node --test wrote: the function never called is the uncovered range", { timeout: 60_000 }, async () => {
    const root = await temp.make("node-lcov", {
      "src/calc.js": "exports.used = (x) => x + 1;\nexports.unused = (x) => {\n  const y = x * 2;\n  return y;\n};\n",
      "coverage/.gitkeep": "",
      "test/calc.test.js":
        'const test = require("node:test");\nconst { used } = require("../src/calc.js");\ntest("used", () => {\n  if (used(1) !== 2) throw new Error("bad");\n});\n',
    });
    execFileSync(
      process.execPath,
      [
        "--test",
        "--experimental-test-coverage",
        "--test-reporter=lcov",
        "--test-reporter-destination=coverage/lcov.info",
        "test/calc.test.js",
      ],
      { cwd: root, stdio: "ignore" },
    );
    const d = await dispatcher(root);
    const cov = await d.data<Coverage>("getCodeCoverage", { path: "src" });
    expect(cov).toMatchObject({ report: "coverage/lcov.info", format: "lcov" });
    expect(cov.files).toEqual([{ file: "src/calc.js", covered: 3, total: 5, percent: 60, uncovered: "3-4" }]);
    expect(cov.totals).toEqual({ covered: 3, total: 5, percent: 60 });
  });

  const noGo = missingProgram("go", ["version"]);
  it.skipIf(noGo !== undefined)(
    `reads go test's cover profile, with paths relative to the module (${noGo ?? "go found"})`,
    { timeout: 180_000 },
    async () => {
      const root = await temp.make("go-cover", {
        "go.mod": "module example.com/calc\n\ngo 1.19\n",
        "calc/calc.go": "package calc\n\nfunc Add(a, b int) int {\n\treturn a + b\n}\n\nfunc Sub(a, b int) int {\n\treturn a - b\n}\n",
        "calc/calc_test.go":
          'package calc\n\nimport "testing"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Fatal("bad")\n\t}\n}\n',
      });
      execFileSync("go", ["test", "-coverprofile=coverage.out", "./..."], {
        cwd: root,
        stdio: "ignore",
        env: { ...process.env, GOFLAGS: "-mod=mod", GOTOOLCHAIN: "local" },
      });
      const d = await dispatcher(root);
      const cov = await d.data<Coverage>("getCodeCoverage", {});
      expect(cov).toMatchObject({ report: "coverage.out", format: "go" });
      expect(cov.files).toEqual([{ file: "calc/calc.go", covered: 1, total: 2, percent: 50, uncovered: "7-9" }]);
    },
  );

  it("reads a 30 MB istanbul report while timers keep running, and lists the worst 50 files first", { timeout: 180_000 }, async () => {
    const root = await temp.make("big-istanbul", {});
    const report: Record<string, unknown> = {};
    for (let f = 0; f < 600; f++) {
      const path = join(root, `src/file${String(f).padStart(3, "0")}.ts`);
      const statementMap: Record<string, unknown> = {};
      const s: Record<string, number> = {};
      for (let i = 0; i < 500; i++) {
        statementMap[i] = { start: { line: i + 1, column: 0 }, end: { line: i + 1, column: 30 } };
        // File f leaves its first f * 499/599 lines unrun: file599 is the worst covered.
        s[i] = i < Math.floor((f * 499) / 599) ? 0 : 1;
      }
      report[path] = { path, statementMap, fnMap: {}, branchMap: {}, s, f: {}, b: {} };
    }
    const text = JSON.stringify(report, null, 2);
    expect(text.length).toBeGreaterThan(30_000_000);
    await temp.make("big-istanbul", { "coverage/coverage-final.json": text });
    // The call's own limit sized for a loaded 2-core machine: the test measures turns, not speed.
    const d = await dispatcher(root, { settings: { timeoutMs: 120_000 } });

    const { value: cov, ms: took, longest, ticks } = await measureTurns(() => d.data<Coverage>("getCodeCoverage", {}));

    expect(cov.format).toBe("istanbul");
    expect(cov.totals.total).toBe(300_000);
    expect(cov.files).toHaveLength(50);
    expect(cov.filesOmitted).toBe(550);
    expect(cov.files[0]).toMatchObject({ file: "src/file599.ts", covered: 1, total: 500, uncovered: "1-499" });
    // Read in one go, the parse and the count would be one gap of most of the call. Half, not less:
    // on a loaded machine one collection of a 30 MB heap or one lost time slice is a gap of its own.
    expect(ticks, `${took.toFixed(0)} ms`).toBeGreaterThan(10);
    expect(longest, `longest gap ${longest.toFixed(0)} ms of ${took.toFixed(0)} ms`).toBeLessThan(took / 2);
  });
});
