// How projects name their tests, across ecosystems: which files are tests (by the names their
// runners collect and the directories they live in), which source file a test is named for
// ("strings.test.ts" and "test_strings.py" are for "strings"), and which files are dependencies'
// code rather than the project's. One answer for every toolset: a file is a test for
// findRelatedTests exactly when it is one for the analysis tools.
import { basename } from "../../lib/paths/posix-path.ts";

/** Directories whose files are tests whatever their names. */
const TEST_DIRS = new Set(["test", "tests", "__tests__", "spec", "specs", "e2e"]);

export function isTestFile(path: string): boolean {
  const name = basename(path);
  if (!/\.[A-Za-z0-9]+$/.test(name)) return false;
  // pytest's fixtures file: test code, named for no subject.
  if (name === "conftest.py") return true;
  if (
    path
      .split("/")
      .slice(0, -1)
      .some((dir) => TEST_DIRS.has(dir))
  )
    return true;
  return subjectOf(name) !== undefined;
}

/**
 * The stem a test file is named for, normalized (lowercase, letters and digits only): undefined
 * when the name has no test marker.
 */
export function subjectOf(name: string): string | undefined {
  const stem = name.replace(/\.[^.]+$/, "");
  const patterns = [
    /^(.+)[._-](?:test|spec)s?(?:[._-].*)?$/i, // strings.test, strings_test, strings.spec.browser
    /^(?:test|spec)s?[._-](.+)$/i, // test_strings
    /^(.+?)(?:Test|Tests|Spec|IT)$/, // StringsTest (Java, Kotlin, C#)
  ];
  for (const pattern of patterns) {
    const m = pattern.exec(stem);
    if (m?.[1] !== undefined) return normalized(m[1]);
  }
  return undefined;
}

/** The stem of a source file, normalized as subjectOf's. */
export function stemOf(path: string): string {
  return normalized(basename(path).replace(/\.[^.]+$/, ""));
}

function normalized(stem: string): string {
  return stem.toLowerCase().replace(/[^a-z0-9]/g, "");
}

/** Directories whose code is a dependency or build output: a frame there is not the project's. */
const NOT_OURS = /(?:^|\/)(?:node_modules|site-packages|dist-packages|\.venv|venv|vendor)\//;

export function isDependencyPath(path: string): boolean {
  return NOT_OURS.test(path);
}
