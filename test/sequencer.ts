// The order vitest starts the suite's files in: the longest first, so that no long file starts
// late and runs on alone at the end while the other workers sit idle. vitest's own order
// (BaseSequencer) uses the durations it recorded in an earlier run, but a fresh clone (CI) has
// none: it then orders the projects by name and their files by size, which put the VS Code e2e
// (160 s, one of the smallest files) near the end of its project. Here the projects start in
// PROJECT_ORDER, and within each a file's expected duration is the one vitest recorded when there
// is one, else its figure in HEAVY_FILES, else zero (those keep vitest's order, after the heavy
// ones). test/suite-order.ts says how those lists are kept from going stale.
import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { HEAVY_FILES, PROJECT_ORDER } from "./suite-order.ts";

export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const ordered = await super.sort(files);
    const root = this.ctx.config.root;
    const projectRank = (spec: TestSpecification): number => {
      const rank = PROJECT_ORDER.indexOf(spec.project.name);
      return rank === -1 ? PROJECT_ORDER.length : rank;
    };
    const expectedMs = (spec: TestSpecification): number => {
      const file = relative(root, spec.moduleId);
      const recorded = this.ctx.cache.getFileTestResults(`${spec.project.name}:${file}`);
      if (recorded?.failed) return Number.MAX_SAFE_INTEGER; // as vitest does: a failed file first
      return recorded?.duration ?? (HEAVY_FILES[file] ?? 0) * 1000;
    };
    const key = new Map(ordered.map((spec) => [spec, { rank: projectRank(spec), ms: expectedMs(spec) }]));
    // A stable sort: files with equal keys (the unlisted ones, on a fresh clone) keep vitest's order.
    return ordered.sort((a, b) => {
      const ka = key.get(a) ?? { rank: 0, ms: 0 };
      const kb = key.get(b) ?? { rank: 0, ms: 0 };
      return ka.rank - kb.rank || kb.ms - ka.ms;
    });
  }
}
