// The order in which a whole-workspace or whole-directory check looks at files and shows what it
// found: the project's own code first, then its tests, then what is not its product (benchmarks,
// examples, fixtures, generated code), then configuration. A capped answer on a real repository
// otherwise fills up with benchmarks/ and examples/ (sorted by name, they come before src/) and
// never shows an error in the code itself.

/** Directories whose files are not the project's product. */
const ASIDE = new Set([
  "bench",
  "benchmark",
  "benchmarks",
  "example",
  "examples",
  "demo",
  "demos",
  "sample",
  "samples",
  "fixture",
  "fixtures",
  "__fixtures__",
  "generated",
  "gen",
  "__generated__",
  "vendor",
  "third_party",
  "runtime-tests",
  "playground",
  "docs",
  // Dependencies: a project that checks library files (no skipLibCheck) reports their errors, but
  // they are not the project's code and must not come before it.
  "node_modules",
  "site-packages",
  ".venv",
]);
const TESTS = new Set(["test", "tests", "__tests__", "spec", "specs", "e2e", "testing"]);
const TEST_FILE = /(^|[._-])(test|spec)\.[^./]+$|^test_[^/]*\.py$|_test\.(go|py)$/;
const CONFIG = /\.(json|jsonc|ya?ml|toml)$/;

/** 0 the project's own code, 1 its tests, 2 benchmarks, examples and generated files, 3 configuration. */
export function fileRank(relative: string): number {
  const parts = relative.split("/");
  const name = parts[parts.length - 1] ?? "";
  if (CONFIG.test(name)) return 3;
  const dirs = parts.slice(0, -1).map((p) => p.toLowerCase());
  if (dirs.some((d) => ASIDE.has(d)) || /\.(generated|gen|pb)\.[^.]+$/.test(name)) return 2;
  if (dirs.some((d) => TESTS.has(d)) || TEST_FILE.test(name)) return 1;
  return 0;
}
