import { defineConfig } from "vitest/config";
import LongestFirstSequencer from "./test/sequencer.ts";

// Four projects. unit: in-process only (test/unit, mirroring src's layers); its setup file fails
// any test that starts a child process. integration: real git, rg, gh, racing processes and
// language servers (test/integration, the same layers), with timeouts sized for a loaded 2-core
// machine: its slowest git cases take about 5 s on a busy one, and 60 s leaves room for a much
// busier one (the race tests set their own, longer). contract: the bridge and runtime probes under
// node, bun and deno (test/contract). e2e: the real things (the bridge, the Claude Code CLI, the
// conformance suite). Files run in parallel on three workers on the 2-core CI machines: most
// files spend much of their time waiting on the processes they drive (language servers, git, the
// Claude Code CLI, code-server), and with two workers a quiet machine's CPU sat 17 % idle (CI of
// fbea508: 83 % busy over 804 s); with three, 99 % busy during the tests (CI of b95f212: 784 s
// with 100 more tests). Every timeout is sized for load 8, which a third worker stays well under. Every run also writes a JSON report that .ci/run turns into its "N passed, N failed"
// line. A passing run is quiet: what a test logs is shown only when it fails, and child processes'
// output reaches the terminal only through a failing assertion's message.

// expect.poll's default outside the unit project. vitest's own gives up after 1 s, but there a
// poll waits for another process (a killed child to be reaped, a bridge to log a line or to see a
// session drop), which a loaded machine can take longer than that to schedule: this bound only
// catches a hang, so it is sized like the timeouts. A poll that must see something soon says so
// with a timeout of its own. The unit project keeps 1 s: its polls wait on nothing but themselves.
const POLL_TIMEOUT_MS = 20_000;

export default defineConfig({
  test: {
    maxWorkers: 3,
    // Longest files first, also on a fresh clone where vitest has no durations of its own yet.
    sequence: { sequencer: LongestFirstSequencer },
    // One temporary directory per run (TMPDIR), removed at its end: nothing is left in the real
    // one, even by a test that timed out (test/temp-dir.ts).
    globalSetup: ["./test/temp-dir.ts"],
    silent: "passed-only",
    // test/timing-reporter.ts lists tests slower than a fifth of their timeout (test-results/timing.json).
    reporters: ["default", "json", "./test/timing-reporter.ts"],
    outputFile: { json: "test-results/vitest.json" },
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["test/unit/**/*.test.ts"],
          setupFiles: ["test/unit/in-process-only.ts"],
          // The unit files share their workers' module graph instead of importing the bridge anew
          // for each file: that import was most of the project's time (7 min against 1.5 on a busy
          // machine). They keep no module state between files (they pass in any order: shuffled runs).
          isolate: false,
          // Here a timeout only catches a hang: the slowest unit tests (the house rules reading every
          // source file, the parsers' linear-time checks) take 1 to 2 s on a quiet machine and eight
          // times that when it is shared.
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          expect: { poll: { timeout: POLL_TIMEOUT_MS } },
          include: ["test/integration/**/*.test.ts"],
          // Like the unit files, they share their workers' modules: a fresh process per file spent
          // much of its time in imports (the integration project alone, one run each on a shared
          // machine at load about 25 and then about 12: imports 306 s -> 24 s, user CPU 268 s -> 170 s).
          // Each file stops what it starts.
          isolate: false,
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: "contract",
          expect: { poll: { timeout: POLL_TIMEOUT_MS } },
          include: ["test/contract/**/*.test.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: "e2e",
          expect: { poll: { timeout: POLL_TIMEOUT_MS } },
          include: ["test/e2e/**/*.test.ts"],
          // Shared modules here too: a fresh worker per file left one of the two workers importing
          // most of the time (at load 8: 326 s with one file running against 425 s with two). The
          // e2e project alone, machine nearly idle, 68 files: 412 s and 15 s of imports without
          // isolation, 470 s in the last quiet CI with it. The files keep their state in their
          // bridges and processes, which each stops.
          isolate: false,
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
