// The order vitest starts the suite's files in: the longest first, so that no long file starts
// late and runs on alone at the end while the other workers sit idle. vitest's own order
// (BaseSequencer) uses the durations it recorded in an earlier run, but a fresh clone (CI) has
// none: it then orders the projects by name and their files by size, which put the VS Code e2e
// (160 s, one of the smallest files) near the end of its project. The order itself is
// test/suite-order.ts's longestFirst, which says how its lists are kept from going stale.
import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { longestFirst } from "./suite-order.ts";

export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    return longestFirst(await super.sort(files), (spec) => {
      const file = relative(root, spec.moduleId);
      const recorded = this.ctx.cache.getFileTestResults(`${spec.project.name}:${file}`);
      return {
        project: spec.project.name,
        file,
        ...(recorded === undefined ? {} : { recorded: { durationMs: recorded.duration, failed: recorded.failed } }),
      };
    });
  }
}
