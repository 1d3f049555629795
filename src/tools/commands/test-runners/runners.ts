// How each runner is run and read: a fixed argv with its machine-readable reporter (the caller's
// filter and file become single arguments, never options), and the parser of that report.
import { goPackageOf } from "../../../diagnostics/parsers/paths.ts";
import { ToolError } from "../../../errors.ts";
import { pathArgument } from "../../../exec/toolchain.ts";
import type { ToolchainResult } from "../../../exec/exec.ts";
import { parseCargoTestText } from "./cargo-test-text.ts";
import { parseGoTestJson } from "./go-test-json.ts";
import { parseJestJson } from "./jest-json.ts";
import { parseJunitXml } from "./junit-xml.ts";
import { parseMochaJson } from "./mocha-json.ts";
import { parseNodeTap } from "./node-tap.ts";
import type { ParsedRun } from "./test-run.ts";

export const RUNNER_NAMES = ["vitest", "jest", "mocha", "node", "pytest", "go", "cargo"] as const;
export type RunnerName = (typeof RUNNER_NAMES)[number];

export interface RunRequest {
  /** A test name pattern, already checked not to start with "-". */
  filter?: string;
  /** A test file or directory, root-relative, through the jail. */
  file?: string;
}

export interface TestRunner {
  name: RunnerName;
  program: string;
  args(req: RunRequest): readonly string[] | ((reportPath: string) => readonly string[]);
  parse(result: ToolchainResult, root: string): ParsedRun;
}

const opt = <T>(value: T | undefined, make: (v: T) => string[]): string[] => (value === undefined ? [] : make(value));

export const RUNNERS: Readonly<Record<RunnerName, TestRunner>> = {
  vitest: {
    name: "vitest",
    program: "vitest",
    args: (r) => ["run", "--reporter=json", ...opt(r.filter, (f) => [`--testNamePattern=${f}`]), ...opt(r.file, (f) => [pathArgument(f)])],
    parse: (res, root) => parseJestJson(res.stdout, root),
  },
  jest: {
    name: "jest",
    program: "jest",
    args: (r) => ["--json", "--ci", "--testLocationInResults", "--watchAll=false", ...opt(r.filter, (f) => [`--testNamePattern=${f}`]), ...opt(r.file, (f) => ["--runTestsByPath", pathArgument(f)])],
    parse: (res, root) => parseJestJson(res.stdout, root),
  },
  mocha: {
    name: "mocha",
    program: "mocha",
    args: (r) => ["--reporter=json", ...opt(r.filter, (f) => [`--grep=${f}`]), ...opt(r.file, (f) => [pathArgument(f)])],
    parse: (res, root) => parseMochaJson(res.stdout, root),
  },
  node: {
    name: "node",
    program: "node",
    args: (r) => ["--test", "--test-reporter=tap", ...opt(r.filter, (f) => [`--test-name-pattern=${f}`]), ...opt(r.file, (f) => [pathArgument(f)])],
    parse: (res, root) => parseNodeTap(res.stdout, root),
  },
  pytest: {
    name: "pytest",
    program: "pytest",
    // xunit1 adds file and line to each testcase; -p no:cacheprovider leaves no .pytest_cache behind.
    args: (r) => (report) => ["-q", "-p", "no:cacheprovider", `--junitxml=${report}`, "-o", "junit_family=xunit1", ...opt(r.filter, (f) => ["-k", f]), ...opt(r.file, (f) => [pathArgument(f)])],
    parse: (res) => parseJunitXml(res.report),
  },
  go: {
    name: "go",
    program: "go",
    args: (r) => ["test", "-json", ...opt(r.filter, (f) => [`-run=${f}`]), r.file === undefined ? "./..." : goPackageOf(r.file)],
    parse: (res) => parseGoTestJson(res.stdout),
  },
  cargo: {
    name: "cargo",
    program: "cargo",
    args: (r) => ["test", "--no-fail-fast", ...opt(r.file, (f) => ["--test", cargoTestTarget(f)]), ...opt(r.filter, (f) => [f])],
    parse: (res) => parseCargoTestText(res.stdout),
  },
};

/** cargo test picks integration tests by target name: tests/<name>.rs. */
function cargoTestTarget(file: string): string {
  const m = /^(?:.*\/)?tests\/(\w[\w-]*)\.rs$/.exec(file);
  if (m === null) throw new ToolError("invalid_arguments", `cargo runs tests by target, and ${file} is not an integration test file (tests/<name>.rs)`, { suggestion: "Pass a test name as filter instead of a file." });
  return m[1] ?? "";
}
