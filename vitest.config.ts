import { defineConfig } from "vitest/config";

// Three projects: fast in-process tests; the contract suite, which starts the bridge and runtime
// probes under node, bun and deno (test/contract); and e2e tests that start real processes (the
// bridge, the Claude Code CLI, the conformance suite). The last two get longer timeouts. Files
// run in parallel on at most two workers, which suits the 2-core CI machines. Every run also
// writes a JSON report that .ci/run turns into its "N passed, N failed" line. A passing run is
// quiet (issue 8): what a test logs is shown only when it fails, and child processes' output
// reaches the terminal only through a failing assertion's message.
export default defineConfig({
  test: {
    maxWorkers: 2,
    silent: "passed-only",
    reporters: ["default", "json"],
    outputFile: { json: "test-results/vitest.json" },
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["test/**/*.test.ts"],
          exclude: ["test/e2e/**", "test/contract/**", "**/node_modules/**"],
        },
      },
      {
        extends: true,
        test: {
          name: "contract",
          include: ["test/contract/**/*.test.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.test.ts"],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
