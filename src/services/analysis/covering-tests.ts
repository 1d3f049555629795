// The tests that reach some files: a test file that imports one of them (resolved by the language
// server, services/lsp-imports) covers it directly; one that imports a file importing them, through
// one file between. What getChangeImpact lists as "the tests to run".
import type { ToolContext } from "../../capabilities/context.ts";
import { importGraph } from "../lsp-imports/import-graph.ts";
import { sourceFilesUnder } from "./source-files.ts";
import { isTestFile } from "../conventions/test-files.ts";

const MAX_TESTS = 300;

export interface CoveringTests {
  /** Test file -> the touched or referencing files it imports (directly) or reaches through one import. */
  tests: Map<string, { direct: string[]; through: string[] }>;
  /** Test files whose imports could not be read, or past the bound. */
  unknown: number;
}

/** `targets`: the changed files; `users`: the files that use what changed. */
export async function coveringTests(
  ctx: ToolContext,
  opts: { targets: ReadonlySet<string>; users: ReadonlySet<string> },
): Promise<CoveringTests> {
  const { targets, users } = opts;
  const all = await sourceFilesUnder(ctx, ".", { max: 5000 });
  const tests = all.files.filter(isTestFile).slice(0, MAX_TESTS);
  const graph = await importGraph(ctx, tests, { maxFiles: MAX_TESTS, depth: 1 });
  const out: CoveringTests = { tests: new Map(), unknown: all.files.filter(isTestFile).length - tests.length + graph.failed.size };
  for (const [test, edges] of graph.edges) {
    if (!isTestFile(test)) continue;
    const imported = new Set(edges.flatMap((e) => (e.to === undefined ? [] : [e.to])));
    const direct = [...imported].filter((f) => targets.has(f));
    const through = [...imported].filter((f) => users.has(f) && !targets.has(f));
    if (direct.length > 0 || through.length > 0 || targets.has(test)) out.tests.set(test, { direct, through });
  }
  return out;
}
