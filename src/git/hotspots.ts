// Counts, per file, the commits that touched it and the lines they added and deleted, from
// `git log --numstat -z --format=%x1e`: a RS record per commit, then "added\tdeleted\tpath" NUL-ended
// ("-" for binary files).

export interface Hotspot {
  path: string;
  commits: number;
  added: number;
  deleted: number;
}

export function countHotspots(output: string): { commits: number; files: Hotspot[] } {
  const files = new Map<string, Hotspot>();
  let commits = 0;
  for (const token of output.split("\0")) {
    if (token === "\x1e") {
      commits++;
      continue;
    }
    const m = /^\n?(\d+|-)\t(\d+|-)\t([^]*)$/.exec(token);
    if (m === null) continue;
    const [, added = "-", deleted = "-", path = ""] = m;
    const spot = files.get(path) ?? { path, commits: 0, added: 0, deleted: 0 };
    spot.commits++;
    spot.added += added === "-" ? 0 : Number(added);
    spot.deleted += deleted === "-" ? 0 : Number(deleted);
    files.set(path, spot);
  }
  const ranked = [...files.values()].sort((a, b) => b.commits - a.commits || b.added + b.deleted - (a.added + a.deleted) || a.path.localeCompare(b.path));
  return { commits, files: ranked };
}
