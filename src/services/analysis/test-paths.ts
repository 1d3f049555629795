// Which workspace files are tests, for the analysis tools: a test is never "unused", the tests that
// reach a changed file are its coverage, and a stack frame in a test is told from one in the code
// under test. By the names the test runners themselves collect by default.

const TEST_NAME_PATTERNS: readonly RegExp[] = [
  /\.(?:test|spec)\.[cm]?[jt]sx?$/, // vitest, jest, mocha conventions
  /(?:^|\/)test_[^/]+\.py$/, // pytest
  /_test\.py$/,
  /(?:^|\/)conftest\.py$/,
  /_test\.go$/, // go test
  /(?:^|\/)(?:__tests__|tests?|spec)\/.+\.(?:[cm]?[jt]sx?|py|c|cc|cpp)$/,
];

export function isTestPath(path: string): boolean {
  return TEST_NAME_PATTERNS.some((p) => p.test(path));
}

/** Directories whose code is a dependency or build output: a frame there is not the project's. */
const NOT_OURS = /(?:^|\/)(?:node_modules|site-packages|dist-packages|\.venv|venv|vendor)\//;

export function isDependencyPath(path: string): boolean {
  return NOT_OURS.test(path);
}
