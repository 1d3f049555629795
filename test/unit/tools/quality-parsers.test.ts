// The checkers', auditors' and coverage reports' parsers on sample output (most of those programs
// are not installed here), and getCodeCoverage on reports written by the test. fixAllLintErrors runs
// a stand-in eslint, so it is in test/integration/tools/fix-all-lint-errors.test.ts.
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseCargoJson } from "../../../src/services/diagnostics/parsers/cargo-json.ts";
import { parseEslintJson } from "../../../src/services/diagnostics/parsers/eslint-json.ts";
import { parseGithubAnnotations, parseLocationLines } from "../../../src/services/diagnostics/parsers/location-lines.ts";
import { parsePyrightJson } from "../../../src/services/diagnostics/parsers/pyright-json.ts";
import { parseRuffJson } from "../../../src/services/diagnostics/parsers/ruff-json.ts";
import { parseTscOutput } from "../../../src/services/diagnostics/parsers/tsc-output.ts";
import { parseCargoAudit, parseNpmAudit, parsePipAudit } from "../../../src/services/audit/audit-reports.ts";
import { renderGoGraph } from "../../../src/tools/quality/dependency-trees.ts";
import {
  lineRanges,
  parseCobertura,
  parseGoCoverProfile,
  parseIstanbulFinal,
} from "../../../src/tools/commands/coverage/coverage-reports.ts";
import { dispatcher } from "../../helpers/tool-dispatch.ts";

let base: string;
beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "cib-qparse-")));
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe("checker output parsers", () => {
  it("tsc, with related information folded into the message", () => {
    const out =
      "src/a.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.\n  The expected type comes from here.\nerror TS5083: Cannot read file.\n";
    expect(parseTscOutput(out, "/ws")).toEqual([
      {
        file: "src/a.ts",
        line: 3,
        column: 7,
        severity: "error",
        code: "TS2322",
        message: "Type 'string' is not assignable to type 'number'.\nThe expected type comes from here.",
        source: "tsc",
      },
    ]);
  });

  it("eslint -f json, without its notes about ignored files", async () => {
    const ignored = {
      filePath: "/ws/src/b.ts",
      messages: [
        {
          ruleId: null,
          fatal: false,
          severity: 1,
          message: "File ignored because no matching configuration was supplied.",
          nodeType: null,
        },
      ],
    };
    const out = JSON.stringify([
      {
        filePath: "/ws/src/a.js",
        messages: [
          { ruleId: "no-unused-vars", severity: 2, message: "'x' is unused.", line: 1, column: 7, endLine: 1, endColumn: 8 },
          { ruleId: null, fatal: true, severity: 2, message: "Parsing error", line: 4, column: 1 },
        ],
      },
      ignored,
    ]);
    expect(await parseEslintJson(out, "/ws")).toEqual([
      {
        file: "src/a.js",
        line: 1,
        column: 7,
        endLine: 1,
        endColumn: 8,
        severity: "error",
        code: "no-unused-vars",
        message: "'x' is unused.",
        source: "eslint",
      },
      { file: "src/a.js", line: 4, column: 1, severity: "error", message: "Parsing error", source: "eslint" },
    ]);
  });

  it("ruff, pyright, cargo, go vet and biome's GitHub annotations", async () => {
    expect(
      await parseRuffJson(
        JSON.stringify([
          {
            code: "F401",
            message: "`os` imported but unused",
            filename: "/ws/m.py",
            location: { row: 1, column: 8 },
            end_location: { row: 1, column: 10 },
          },
        ]),
        "/ws",
      ),
    ).toEqual([
      {
        file: "m.py",
        line: 1,
        column: 8,
        endLine: 1,
        endColumn: 10,
        severity: "warning",
        code: "F401",
        message: "`os` imported but unused",
        source: "ruff",
      },
    ]);
    const pyright = {
      generalDiagnostics: [
        {
          file: "/ws/m.py",
          severity: "error",
          message: "x is not defined",
          rule: "reportUndefinedVariable",
          range: { start: { line: 4, character: 0 }, end: { line: 4, character: 1 } },
        },
      ],
    };
    expect(await parsePyrightJson(JSON.stringify(pyright), "/ws")).toEqual([
      {
        file: "m.py",
        line: 5,
        column: 1,
        endLine: 5,
        endColumn: 2,
        severity: "error",
        code: "reportUndefinedVariable",
        message: "x is not defined",
        source: "pyright",
      },
    ]);
    const cargo = [
      JSON.stringify({ reason: "compiler-artifact" }),
      JSON.stringify({
        reason: "compiler-message",
        message: {
          level: "error",
          message: "mismatched types",
          code: { code: "E0308" },
          spans: [{ file_name: "src/lib.rs", line_start: 3, column_start: 5, line_end: 3, column_end: 9, is_primary: true }],
        },
      }),
    ].join("\n");
    expect(await parseCargoJson(cargo, "/ws")).toEqual([
      {
        file: "src/lib.rs",
        line: 3,
        column: 5,
        endLine: 3,
        endColumn: 9,
        severity: "error",
        code: "E0308",
        message: "mismatched types",
        source: "cargo",
      },
    ]);
    expect(
      parseLocationLines("# example.com/m\n./main.go:8:2: fmt.Printf format %d has arg s of wrong type string\n", "/ws", {
        source: "go vet",
      }),
    ).toEqual([
      {
        file: "main.go",
        line: 8,
        column: 2,
        severity: "warning",
        message: "fmt.Printf format %d has arg s of wrong type string",
        source: "go vet",
      },
    ]);
    expect(
      parseGithubAnnotations(
        "::error title=lint/suspicious/noDebugger,file=src/a.ts,line=2,endLine=2,col=1,endColumn=9::This is an unexpected use of the debugger statement.%0AUnsafe fix available.\n",
        "/ws",
        { source: "biome" },
      ),
    ).toEqual([
      {
        file: "src/a.ts",
        line: 2,
        column: 1,
        endLine: 2,
        endColumn: 9,
        severity: "error",
        code: "lint/suspicious/noDebugger",
        message: "This is an unexpected use of the debugger statement.\nUnsafe fix available.",
        source: "biome",
      },
    ]);
  });
});

describe("audit report parsers", () => {
  it("npm audit --json, direct and transitive, with fixes", () => {
    const report = {
      vulnerabilities: {
        minimist: {
          name: "minimist",
          severity: "critical",
          via: [
            {
              source: 1,
              name: "minimist",
              title: "Prototype Pollution in minimist",
              url: "https://github.com/advisories/GHSA-xvch-5gv4-984h",
              severity: "critical",
            },
          ],
          fixAvailable: true,
        },
        mkdirp: {
          name: "mkdirp",
          severity: "critical",
          via: ["minimist"],
          fixAvailable: { name: "mkdirp", version: "1.0.4", isSemVerMajor: true },
        },
        ok: { name: "ok", severity: "low", via: ["x"], fixAvailable: false },
      },
      metadata: { vulnerabilities: { critical: 2, low: 1, total: 3 } },
    };
    expect(parseNpmAudit(report)).toEqual([
      {
        package: "minimist",
        severity: "critical",
        title: "Prototype Pollution in minimist",
        url: "https://github.com/advisories/GHSA-xvch-5gv4-984h",
        fix: "npm audit fix",
      },
      { package: "mkdirp", severity: "critical", title: "through minimist", fix: "mkdirp@1.0.4 (semver-major)" },
      { package: "ok", severity: "low", title: "through x" },
    ]);
  });

  it("pip-audit and cargo audit", () => {
    expect(
      parsePipAudit({
        dependencies: [
          { name: "jinja2", version: "2.4.1", vulns: [{ id: "PYSEC-2019-217", fix_versions: ["2.10.1"], aliases: ["CVE-2019-10906"] }] },
          { name: "ok", version: "1", vulns: [] },
        ],
      }),
    ).toEqual([{ package: "jinja2@2.4.1", severity: "unknown", title: "PYSEC-2019-217 / CVE-2019-10906", fix: "upgrade to 2.10.1" }]);
    expect(
      parseCargoAudit({
        vulnerabilities: {
          found: true,
          list: [
            {
              advisory: { id: "RUSTSEC-2020-0071", title: "Potential segfault", url: "https://rustsec.org/advisories/RUSTSEC-2020-0071" },
              versions: { patched: [">=0.2.23"] },
              package: { name: "time", version: "0.1.45" },
            },
          ],
        },
      }),
    ).toEqual([
      {
        package: "time@0.1.45",
        severity: "unknown",
        title: "RUSTSEC-2020-0071: Potential segfault",
        url: "https://rustsec.org/advisories/RUSTSEC-2020-0071",
        fix: "upgrade to >=0.2.23",
      },
    ]);
  });

  it("go mod graph as a tree, to a depth", () => {
    const graph =
      "example.com/app golang.org/x/text@v0.3.0\nexample.com/app rsc.io/quote@v1.5.2\nrsc.io/quote@v1.5.2 rsc.io/sampler@v1.3.0\nrsc.io/sampler@v1.3.0 golang.org/x/text@v0.3.0\n";
    expect(renderGoGraph(graph, 1)).toBe("example.com/app\n├── golang.org/x/text@v0.3.0\n└── rsc.io/quote@v1.5.2");
    expect(renderGoGraph(graph, 3)).toContain(
      "└── rsc.io/quote@v1.5.2\n    └── rsc.io/sampler@v1.3.0\n        └── golang.org/x/text@v0.3.0",
    );
  });
});

describe("coverage report parsers", () => {
  it("istanbul, Cobertura and go profiles, with uncovered line ranges", async () => {
    const istanbul = {
      "/ws/src/a.ts": {
        path: "/ws/src/a.ts",
        statementMap: { "0": { start: { line: 1 } }, "1": { start: { line: 2 } }, "2": { start: { line: 3 } } },
        s: { "0": 1, "1": 0, "2": 0 },
      },
    };
    expect(await parseIstanbulFinal(istanbul, "/ws")).toEqual([{ file: "src/a.ts", covered: 1, total: 3, uncovered: [2, 3] }]);
    const xml = `<coverage><sources><source>/ws</source></sources><packages><package><classes><class filename="pkg/m.py"><lines><line number="1" hits="1"/><line number="2" hits="0"/></lines></class></classes></package></packages></coverage>`;
    expect(await parseCobertura(xml, "/ws")).toEqual([{ file: "pkg/m.py", covered: 1, total: 2, uncovered: [2] }]);
    expect(
      await parseGoCoverProfile(
        "mode: set\nexample.com/m/calc/calc.go:3.20,5.2 2 1\nexample.com/m/calc/calc.go:7.20,9.2 1 0\n",
        "example.com/m",
      ),
    ).toEqual([{ file: "calc/calc.go", covered: 2, total: 3, uncovered: [7, 8, 9] }]);
    // A forged block end line costs at most 10,000 lines, not a billion.
    expect((await parseGoCoverProfile("mode: set\nm/a.go:1.1,999999999.2 1 0\n", "m"))[0]?.uncovered).toHaveLength(10_001);
    expect(lineRanges([1, 2, 3, 7, 9, 10])).toBe("1-3, 7, 9-10");
    expect(lineRanges([1, 3, 5, 7, 9], 6)).toBe("1, 3, ...");
  });
});

describe("fixAllLintErrors and getCodeCoverage on a workspace", () => {
  it("reads the newest report, worst-covered files first", async () => {
    const root = join(base, "coverage");
    await mkdir(join(root, "coverage"), { recursive: true });
    const d = await dispatcher(root);
    expect((await d.failure("getCodeCoverage", {})).suggestion).toMatch(/--coverage/);
    await writeFile(
      join(root, "coverage", "lcov.info"),
      `SF:${root}/src/a.ts\nDA:1,1\nDA:2,0\nDA:3,0\nend_of_record\nSF:src/b.ts\nDA:1,4\nend_of_record\n`,
    );
    const report = await d.data<{ report: string; totals: unknown; files: unknown[] }>("getCodeCoverage", {});
    expect(report).toMatchObject({ report: "coverage/lcov.info", format: "lcov", totals: { covered: 2, total: 4, percent: 50 } });
    expect(report.files).toEqual([
      { file: "src/a.ts", covered: 1, total: 3, percent: 33.3, uncovered: "2-3" },
      { file: "src/b.ts", covered: 1, total: 1, percent: 100 },
    ]);
    expect((await d.data<{ files: unknown[] }>("getCodeCoverage", { path: "src/b.ts" })).files).toHaveLength(1);
  });
});
