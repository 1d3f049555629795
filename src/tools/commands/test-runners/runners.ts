// How each runner is run and read: a fixed argv with its machine-readable reporter (the caller's
// filter and file become single arguments, never options), and the parser of that report. Runners
// that can write their report to a file do, to a private one (src/capabilities/exec/report-file.ts): on stdout
// the report would be mixed with whatever the tests print. A runner too old to know the option
// writes no file, and its stdout is read instead.
import { goPackageOf } from "../../../services/diagnostics/parsers/paths.ts";
import { ToolError } from "../../../errors.ts";
import { pathArgument } from "../../../capabilities/exec/toolchain.ts";
import type { ToolchainResult } from "../../../capabilities/exec/exec.ts";
import { parseCargoTestText } from "./cargo-test-text.ts";
import { parseGoTestJson } from "./go-test-json.ts";
import { parseJestJson, readJestReport } from "./jest-json.ts";
import { parseJunitXml } from "./junit-xml.ts";
import { parseMochaJson, readMochaReport } from "./mocha-json.ts";
import { parseNodeTap } from "./node-tap.ts";
import { jsonReport, type ParsedRun } from "./test-run.ts";

export const RUNNER_NAMES = ["vitest", "jest", "mocha", "node", "pytest", "go", "cargo"] as const;
export type RunnerName = (typeof RUNNER_NAMES)[number];

export interface RunRequest {
  /** A test name pattern, already checked not to start with "-". */
  filter?: string;
  /** A test file or directory, root-relative, through the jail. */
  file?: string;
  /**
   * The test functions the file declares, for runners that pick tests by name only (go runs a
   * package: its one file's tests are those names).
   */
  names?: readonly string[];
}

export interface TestRunner {
  name: RunnerName;
  program: string;
  /** Whether the runner writes its report to a file (`args` then gets that file's path). */
  writesReport: boolean;
  /** The argv; without `reportPath`, the command line shown to reproduce the run. */
  args(req: RunRequest, reportPath?: string): readonly string[];
  parse(result: ToolchainResult, root: string): Promise<ParsedRun>;
}

const opt = <T>(value: T | undefined, make: (v: T) => string[]): string[] => (value === undefined ? [] : make(value));

export const RUNNERS: Readonly<Record<RunnerName, TestRunner>> = {
  vitest: {
    name: "vitest",
    program: "vitest",
    writesReport: true,
    args: (r, report) => [
      "run",
      "--reporter=json",
      ...opt(report, (p) => [`--outputFile=${p}`]),
      ...opt(r.filter, (f) => [`--testNamePattern=${f}`]),
      ...opt(r.file, (f) => [pathArgument(f)]),
    ],
    parse: async (res, root) => (res.report ? readJestReport(await jsonReport(res.report), root) : parseJestJson(res.stdout, root)),
  },
  jest: {
    name: "jest",
    program: "jest",
    writesReport: true,
    args: (r, report) => [
      "--json",
      ...opt(report, (p) => [`--outputFile=${p}`]),
      "--ci",
      "--testLocationInResults",
      "--watchAll=false",
      ...opt(r.filter, (f) => [`--testNamePattern=${f}`]),
      ...opt(r.file, (f) => ["--runTestsByPath", pathArgument(f)]),
    ],
    parse: async (res, root) => (res.report ? readJestReport(await jsonReport(res.report), root) : parseJestJson(res.stdout, root)),
  },
  mocha: {
    name: "mocha",
    program: "mocha",
    writesReport: true,
    args: (r, report) => [
      "--reporter=json",
      ...opt(report, (p) => ["--reporter-option", `output=${p}`]),
      ...opt(r.filter, (f) => [`--grep=${f}`]),
      ...opt(r.file, (f) => [pathArgument(f)]),
    ],
    parse: async (res, root) => (res.report ? readMochaReport(await jsonReport(res.report), root) : parseMochaJson(res.stdout, root)),
  },
  node: {
    name: "node",
    program: "node",
    writesReport: true,
    args: (r, report) => [
      "--test",
      "--test-reporter=tap",
      ...opt(report, (p) => [`--test-reporter-destination=${p}`]),
      ...opt(r.filter, (f) => [`--test-name-pattern=${f}`]),
      ...opt(r.file, (f) => [pathArgument(f)]),
    ],
    parse: async (res, root) => parseNodeTap(res.report || res.stdout, root),
  },
  pytest: {
    name: "pytest",
    program: "pytest",
    // xunit1 adds file and line to each testcase; -p no:cacheprovider leaves no .pytest_cache behind.
    writesReport: true,
    args: (r, report) => [
      "-q",
      "-p",
      "no:cacheprovider",
      ...opt(report, (p) => [`--junitxml=${p}`]),
      "-o",
      "junit_family=xunit1",
      ...opt(r.filter, (f) => ["-k", f]),
      ...opt(r.file, (f) => [pathArgument(f)]),
    ],
    parse: async (res) => parseJunitXml(res.report),
  },
  go: {
    name: "go",
    program: "go",
    // go test -json is a stream of events the tests' own output goes inside of, never between.
    writesReport: false,
    args: (r) => [
      "test",
      "-json",
      ...opt(r.filter ?? (r.names === undefined || r.names.length === 0 ? undefined : `^(${r.names.join("|")})$`), (f) => [`-run=${f}`]),
      r.file === undefined ? "./..." : goPackageOf(r.file),
    ],
    parse: async (res) => parseGoTestJson(res.stdout),
  },
  cargo: {
    name: "cargo",
    program: "cargo",
    writesReport: false,
    args: (r) => {
      const target = r.file === undefined ? undefined : cargoTarget(r.file);
      const filter = r.filter ?? target?.module;
      return ["test", "--no-fail-fast", ...(target?.args ?? []), ...opt(filter, (f) => [f])];
    },
    parse: async (res) => parseCargoTestText(res.stdout),
  },
};

/**
 * cargo test picks tests by target and then by name: tests/<name>.rs is `--test <name>`,
 * src/bin/<name>.rs `--bin <name>`, src/main.rs the binaries, src/lib.rs the library, and any other
 * file under src/ the library's tests in that module (its path as a name filter, "a::b::").
 */
function cargoTarget(file: string): { args: string[]; module?: string } {
  const integration = /^(?:.*\/)?tests\/(\w[\w-]*)\.rs$/.exec(file);
  if (integration !== null) return { args: ["--test", integration[1] ?? ""] };
  const bin = /^(?:.*\/)?src\/bin\/(\w[\w-]*)(?:\.rs|\/main\.rs)$/.exec(file);
  if (bin !== null) return { args: ["--bin", bin[1] ?? ""] };
  if (/^(?:.*\/)?src\/main\.rs$/.test(file)) return { args: ["--bins"] };
  if (/^(?:.*\/)?src\/lib\.rs$/.test(file)) return { args: ["--lib"] };
  const inModule = /^(?:.*\/)?src\/((?:\w+\/)*\w+)\.rs$/.exec(file);
  if (inModule !== null) {
    const path = (inModule[1] ?? "")
      .replace(/\/mod$/, "")
      .split("/")
      .join("::");
    return { args: ["--lib"], module: `${path}::` };
  }
  throw new ToolError("invalid_arguments", `cargo runs tests by target, and ${file} is not a Rust file of one (tests/<name>.rs, src/...)`, {
    suggestion: "Pass a .rs file under src/ or tests/, or a test name as filter.",
  });
}
