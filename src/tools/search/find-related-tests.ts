// findRelatedTests: the tests of a source file, found two ways: by naming convention (a test named
// for the file's stem, in any ecosystem's style) and by import (a test file whose import or
// require names the file). Reading is bounded: test files only, each at most 1 MB.
import * as v from "valibot";
import { ToolError } from "../../errors.ts";
import { dirname, normalize } from "../../lib/paths/posix-path.ts";
import { displayName } from "../../lib/text/display-name.ts";
import type { ToolContext } from "../../capabilities/context.ts";
import { defineTool } from "../platform/define-tool.ts";
import { namesInside } from "../../services/search/checked-names.ts";
import { listFiles } from "../../services/search/file-list.ts";
import { isTestFile, stemOf, subjectOf } from "../../services/conventions/test-files.ts";

const MAX_TEST_FILES_READ = 2000;
const MAX_TEST_FILE_BYTES = 1024 * 1024;
/** Fixed patterns of ours, each a single pass over a line: safe as JavaScript regexes. */
const IMPORTS = [/\bfrom\s+["']([^"'\n]+)["']/g, /\bimport\s*\(?\s*["']([^"'\n]+)["']/g, /\brequire\s*\(\s*["']([^"'\n]+)["']\s*\)/g];
const PY_IMPORTS = [/^\s*from\s+([\w.]+)\s+import\b/gm, /^\s*import\s+([\w.]+)/gm];
const CODE_EXTENSIONS = /\.(?:[cm]?[jt]sx?|vue|svelte)$/;

export default defineTool({
  name: "findRelatedTests",
  title: "Find related tests",
  description:
    "Finds the test files for a source file: by naming conventions (foo.test.ts, test_foo.py, FooTest.java, foo_test.go...) and by tests that import it.",
  searchHint: "related tests test file for source unit tests spec coverage which tests",
  input: v.strictObject({
    filePath: v.pipe(v.string(), v.minLength(1), v.description("The source file, relative to the workspace root.")),
    maxResults: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(200), v.description("At most this many tests (1-200).")),
      30,
    ),
  }),
  output: v.object({
    file: v.string(),
    tests: v.array(v.object({ path: v.string(), by: v.pipe(v.array(v.picklist(["name", "import"])), v.description("How it was found.")) })),
    testFilesSearched: v.number(),
  }),
  annotations: { readOnlyHint: true },
  async handler(input, ctx) {
    const source = ctx.fs.relative(await ctx.fs.resolve(input.filePath));
    if (!(await ctx.fs.stat(input.filePath)).isFile)
      throw new ToolError("not_a_file", `${input.filePath} is not a file`, { suggestion: "Pass a source file." });
    const listed = await listFiles(ctx, ".", { includeHidden: false, gitignore: true });
    const candidates = listed.files.filter((f) => f !== source && isTestFile(f));
    // A test found by its name alone is shown without being read: rg's names are checked through the jail first (checked-names.ts).
    const tests = listed.via === "rg" ? await namesInside(ctx, candidates, { dir: "." }) : candidates;
    const stem = stemOf(source);
    const found = new Map<string, Set<"name" | "import">>();
    const add = (path: string, by: "name" | "import") => found.set(path, (found.get(path) ?? new Set()).add(by));
    // "strings.test.ts" is named for strings.ts, and so is tests/strings.ts (a test by its directory).
    for (const test of tests) if (subjectOf(test.slice(test.lastIndexOf("/") + 1)) === stem || stemOf(test) === stem) add(test, "name");
    const read = tests.slice(0, MAX_TEST_FILES_READ);
    for (const test of read) if (await importsSource(ctx, test, source)) add(test, "import");
    const ranked = [...found].sort(
      (a, b) => b[1].size - a[1].size || (a[1].has("name") === b[1].has("name") ? (a[0] < b[0] ? -1 : 1) : a[1].has("name") ? -1 : 1),
    );
    return {
      file: displayName(source),
      tests: ranked
        .slice(0, input.maxResults)
        .map(([path, by]) => ({ path: displayName(path), by: [...by].sort((a, b) => (a === "name" ? -1 : b === "name" ? 1 : 0)) })),
      testFilesSearched: read.length,
    };
  },
});

async function importsSource(ctx: ToolContext, test: string, source: string): Promise<boolean> {
  const text = await ctx.fs.readText(test, { maxBytes: MAX_TEST_FILE_BYTES }).catch(() => undefined);
  if (text === undefined) return false;
  const target = withoutExtension(source);
  if (source.endsWith(".py")) {
    const module = target.replace(/\/__init__$/, "").replaceAll("/", ".");
    return PY_IMPORTS.some((re) => [...text.matchAll(re)].some((m) => module === m[1] || module.endsWith(`.${m[1]}`)));
  }
  if (!CODE_EXTENSIONS.test(source)) return false;
  return IMPORTS.some((re) =>
    [...text.matchAll(re)].some((m) => {
      const spec = m[1] as string;
      if (!spec.startsWith(".")) return false;
      const resolved = withoutExtension(normalize(`${dirname(test)}/${spec}`));
      return resolved === target || `${resolved}/index` === target;
    }),
  );
}

function withoutExtension(path: string): string {
  return path.replace(/\.(?:[cm]?[jt]sx?|py|vue|svelte)$/, "");
}
