// The lines the working tree changes against HEAD, per file: from `git diff HEAD --unified=0`
// (the new side of each hunk; a pure deletion marks the line it left), plus untracked files, whole.
// What getChangeImpact measures the blast radius of when it is given no file.
import type { ToolContext } from "../../capabilities/context.ts";
import { openRepository } from "../git/repository.ts";

export interface ChangedFile {
  file: string;
  /** 1-based inclusive line ranges of the new content; undefined: the whole file. */
  ranges?: { start: number; end: number }[];
}

export async function workingTreeChanges(ctx: ToolContext): Promise<ChangedFile[]> {
  const repo = await openRepository(ctx, "read");
  const hasHead = (await repo.run(["rev-parse", "--verify", "--quiet", "HEAD"], { okExitCodes: [1, 128] })).exitCode === 0;
  const diff = hasHead ? await repo.output(["diff", "HEAD", "--unified=0", "--no-color", "--no-ext-diff", "--relative", "--", "."]) : "";
  const changes = parseUnifiedZero(diff);
  const untracked = await repo.output(["ls-files", "--others", "--exclude-standard", "-z", "--", "."]);
  for (const path of untracked.split("\0")) if (path !== "") changes.push({ file: path });
  return changes;
}

/** Files and new-side line ranges of a `--unified=0` diff; deleted files are left out (nothing to analyse). */
export function parseUnifiedZero(diff: string): ChangedFile[] {
  const out: ChangedFile[] = [];
  let current: ChangedFile | undefined;
  for (const line of diff.split("\n")) {
    if (line.startsWith("+++ ")) {
      const path = line.slice(4);
      current = path === "/dev/null" ? undefined : { file: path.replace(/^b\//, ""), ranges: [] };
      if (current !== undefined) out.push(current);
      continue;
    }
    const hunk = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/.exec(line);
    if (hunk === null || current?.ranges === undefined) continue;
    const start = Number(hunk[1]);
    const count = hunk[2] === undefined ? 1 : Number(hunk[2]);
    current.ranges.push(count === 0 ? { start: Math.max(1, start), end: Math.max(1, start) } : { start, end: start + count - 1 });
  }
  return out;
}
