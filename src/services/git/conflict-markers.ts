// Staged files that still hold conflict markers: a conflict "resolved" by staging the file as git
// left it. `git diff --cached --check` finds staged lines that look like markers (it also reports
// whitespace, ignored here); a file counts only if its staged content also has a "<<<<<<<" or
// ">>>>>>>" line, since a lone "=======" is also a Markdown or reStructuredText heading underline.
import { NO_DIFF_PROGRAMS } from "./git-environment.ts";
import type { Repository } from "./repository.ts";

interface MarkedFile {
  /** Relative to the workspace root. */
  path: string;
  /** The staged lines that look like markers, 1-based. */
  lines: number[];
}

const MARKER = /^(.*):(\d+): leftover conflict marker$/;
/** Files to look into; beyond this many, the first ones make the point. */
const MAX_FILES = 50;

export async function stagedConflictMarkers(repo: Repository): Promise<MarkedFile[]> {
  // The whole index (no --relative): a marker outside the workspace's folder is as wrong. Exit 2
  // means it found something; a huge report is capped, which only shortens this list.
  const check = await repo.run(["diff", ...NO_DIFF_PROGRAMS, "--cached", "--check"], { okExitCodes: [2], maxOutputBytes: 256 * 1024 });
  const flagged = new Map<string, number[]>();
  for (const line of check.stdout.split("\n")) {
    const match = MARKER.exec(line);
    if (match === null) continue;
    const [, path = "", at = "0"] = match;
    if (!flagged.has(path) && flagged.size >= MAX_FILES) continue;
    flagged.set(path, [...(flagged.get(path) ?? []), Number(at)]);
  }
  if (flagged.size === 0) return [];
  // Repository-relative names, as diff printed them, both ways (:(top) and --full-name); the
  // names are git's own, so the pathspec magic is ours. Exit 1 means no file matched.
  const paths = [...flagged.keys()].map((p) => `:(top,literal)${p}`);
  const grep = await repo.run(["grep", "--cached", "--full-name", "-l", "-z", "-E", "-e", "^(<{7}|>{7})( |$)", "--", ...paths], {
    okExitCodes: [1],
    literalPathspecs: false,
  });
  const marked = new Set(grep.stdout.split("\0").filter((p) => p !== ""));
  return [...flagged].filter(([path]) => marked.has(path)).map(([path, lines]) => ({ path: repo.workspacePath(path), lines }));
}
