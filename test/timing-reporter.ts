// A vitest reporter that holds the suite to its timing rule: every timeout is sized for a loaded
// 2-core machine, so on a quiet one no test should take more than a fifth of its limit. It lists
// those that do (slowest share first) in test-results/timing.json, with the load average at the
// start and end of the run, since a loaded machine makes every test slower; and prints one line
// when there are any. Files whose beforeAll/afterAll hooks together take more than a fifth of the
// project's hookTimeout are listed too: vitest tells a reporter neither a hook's own limit nor its
// duration (only the file's total time in hooks and tests), so a file whose beforeAll sets a longer
// limit (package.test's 180 s, the VS Code e2e's, watch-huge-tree's 300 s) is still measured
// against the project's, and its entry says so ("limitIs"). It also lists the files slower than
// test/suite-order.ts's threshold that its HEAVY_FILES does not name, so that the start order of a
// fresh clone does not go stale unseen. It never fails the run: a busy machine is not a broken
// test, and the numbers are read with the load beside them.
import { mkdirSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { dirname, relative } from "node:path";
import type { Reporter, TestModule, Vitest } from "vitest/node";
import { HEAVY_FILES, HEAVY_THRESHOLD_S } from "./suite-order.ts";

const SHARE = 5;
const OUT = "test-results/timing.json";

interface Slow {
  file: string;
  test: string;
  ms: number;
  limitMs: number;
  limitIs?: string;
}

const PROJECT_HOOK_LIMIT = "the project's hookTimeout (a beforeAll's own longer limit is not visible to reporters)";

export default class TimingReporter implements Reporter {
  private root = process.cwd();
  private hookTimeouts = new Map<string, number>();
  private readonly loadAtStart = loadavg()[0] ?? 0;
  private readonly startedAt = Date.now();

  onInit(vitest: Vitest): void {
    this.root = vitest.config.root;
    for (const project of vitest.projects) this.hookTimeouts.set(project.name, project.config.hookTimeout);
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const tests: Slow[] = [];
    const files: Slow[] = [];
    const unlistedHeavyFiles: Array<{ file: string; ms: number }> = [];
    let count = 0;
    for (const module of modules) {
      const file = relative(this.root, module.moduleId);
      let inTests = 0;
      for (const test of module.children.allTests()) {
        const ms = test.diagnostic()?.duration;
        const limitMs = test.options.timeout;
        if (ms === undefined || limitMs === undefined) continue;
        count++;
        inTests += ms;
        if (ms * SHARE > limitMs) tests.push({ file, test: test.fullName, ms: Math.round(ms), limitMs });
      }
      const hookLimit = this.hookTimeouts.get(module.project.name);
      // The module's duration is its tests' and hooks' (its imports are apart, in collectDuration).
      const { duration } = module.diagnostic();
      const inHooks = duration - inTests;
      if (hookLimit !== undefined && inHooks * SHARE > hookLimit) {
        files.push({ file, test: "(beforeAll/afterAll)", ms: Math.round(inHooks), limitMs: hookLimit, limitIs: PROJECT_HOOK_LIMIT });
      }
      if (duration > HEAVY_THRESHOLD_S * 1000 && HEAVY_FILES[file] === undefined)
        unlistedHeavyFiles.push({ file, ms: Math.round(duration) });
    }
    const byShare = (a: Slow, b: Slow) => b.ms / b.limitMs - a.ms / a.limitMs;
    tests.sort(byShare);
    files.sort(byShare);
    const report = {
      rule: `no test slower than 1/${SHARE} of its timeout on a quiet machine`,
      loadAverage: { start: this.loadAtStart, end: loadavg()[0] ?? 0 },
      wallMs: Date.now() - this.startedAt,
      tests: count,
      slowTests: tests,
      slowFiles: files,
      unlistedHeavyFiles: {
        why: `slower than ${HEAVY_THRESHOLD_S} s and not in test/suite-order.ts's HEAVY_FILES: add them, or a fresh clone may start them late`,
        files: unlistedHeavyFiles,
      },
    };
    mkdirSync(dirname(OUT), { recursive: true });
    writeFileSync(OUT, `${JSON.stringify(report, null, 2)}\n`);
    if (tests.length + files.length > 0) {
      const load = `load average ${report.loadAverage.start.toFixed(1)} at the start, ${report.loadAverage.end.toFixed(1)} at the end`;
      process.stdout.write(
        `\ntiming: ${tests.length} of ${count} tests and ${files.length} files took more than 1/${SHARE} of their timeout (${load}); see ${OUT}\n`,
      );
    }
  }
}
