// What test/sequencer.ts orders the suite's files by when vitest has no durations of its own (a
// fresh clone, as in CI). Kept apart from the sequencer so that a unit test can check it without
// importing vitest's node API (test/unit/house/suite-order.test.ts: every file named here exists
// and every project is listed), and the timing reporter can name the files that belong here.

/**
 * The projects in the order their files start: the heaviest project first, so its long files
 * never start late, and the unit files (the shortest) fill the end. A project's files stay
 * together: vitest reuses a worker (and the modules it imported) for the next file only when that
 * file is of the same project, and each new worker imports the bridge again.
 */
export const PROJECT_ORDER: readonly string[] = ["e2e", "integration", "contract", "unit"];

/**
 * Seconds each of the slowest files took in the last CI run (a fresh clone on a quiet 2-core machine,
 * three workers; vitest 741 s). Every file of that run over 20 s is here: the timing reporter names a
 * slower one that is not, and a file that got faster keeps its figure until the next such run.
 */
export const HEAVY_FILES: Readonly<Record<string, number>> = {
  "test/e2e/vscode-ide.test.ts": 162,
  "test/e2e/lsp-truth.test.ts": 158,
  "test/e2e/package.test.ts": 146,
  "test/integration/security/git-hostile-table.test.ts": 91,
  "test/e2e/lsp-checker-delta.test.ts": 61,
  "test/e2e/claude-cli.test.ts": 54,
  "test/e2e/first-hour.test.ts": 44,
  "test/e2e/shim-claude-cli.test.ts": 42,
  "test/e2e/run-tests.test.ts": 41,
  "test/integration/tools/git-operations.test.ts": 36,
  "test/e2e/oauth-claude-cli.test.ts": 34,
  "test/integration/tools/git-injection.test.ts": 32,
  "test/e2e/analysis.test.ts": 31,
  "test/integration/capabilities/process-trees.test.ts": 30,
  "test/e2e/lsp-staleness.test.ts": 30,
  "test/e2e/claude-model-view.test.ts": 29,
  "test/e2e/lsp-edits.test.ts": 28,
  "test/e2e/lsp-languages.test.ts": 27,
  "test/e2e/lsp-edit-checker.test.ts": 27,
  "test/integration/security/listing-races.test.ts": 26,
  "test/integration/tools/run-command-bypasses.test.ts": 24,
  "test/integration/security/lint-format-races.test.ts": 22,
  "test/e2e/quality-tools.test.ts": 22,
  "test/e2e/ts6305-solution.test.ts": 21,
};

/** The shortest duration HEAVY_FILES lists: a file slower than this belongs in it. */
export const HEAVY_THRESHOLD_S = Math.min(...Object.values(HEAVY_FILES));

/** What the order needs to know of one test file. */
export interface FileToOrder {
  project: string;
  /** Relative to the repository's root, as HEAVY_FILES names it. */
  file: string;
  /** What vitest recorded of the file in an earlier run, if it has. */
  recorded?: { durationMs: number; failed: boolean };
}

/**
 * `files` (in vitest's own order) by PROJECT_ORDER, then within a project the longest expected
 * first: a recorded failure first (as vitest does, to show it soon), then the recorded duration,
 * else HEAVY_FILES' figure, else zero. The sort is stable, so files with the same expectation
 * (the unlisted ones on a fresh clone) keep vitest's order.
 */
export function longestFirst<T>(files: readonly T[], describe: (file: T) => FileToOrder): T[] {
  const keys = new Map(
    files.map((item) => {
      const { project, file, recorded } = describe(item);
      const rank = PROJECT_ORDER.indexOf(project);
      const expectedMs = recorded?.failed ? Number.MAX_SAFE_INTEGER : (recorded?.durationMs ?? (HEAVY_FILES[file] ?? 0) * 1000);
      return [item, { rank: rank === -1 ? PROJECT_ORDER.length : rank, expectedMs }];
    }),
  );
  const none = { rank: PROJECT_ORDER.length, expectedMs: 0 };
  return [...files].sort((a, b) => {
    const ka = keys.get(a) ?? none;
    const kb = keys.get(b) ?? none;
    return ka.rank - kb.rank || kb.expectedMs - ka.expectedMs;
  });
}
