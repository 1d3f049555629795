// Counts, per file, the commits that touched it and the lines they added and deleted, from
// `git log --numstat -z --format=%x1e`: a RS record per commit, then "added\tdeleted\tpath" NUL-ended
// ("-" for binary files).

interface Hotspot {
  path: string;
  commits: number;
  added: number;
  deleted: number;
}

export function countHotspots(output: string): { commits: number; files: Hotspot[] } {
  const files = new Map<string, Hotspot>();
  let commits = 0;
  for (const raw of output.split("\0")) {
    if (raw === "\x1e") {
      commits++;
      continue;
    }
    // Plain string work, not a regex per entry: a window of 5,000 commits has tens of thousands.
    const token = raw.startsWith("\n") ? raw.slice(1) : raw;
    const firstTab = token.indexOf("\t");
    const secondTab = firstTab < 0 ? -1 : token.indexOf("\t", firstTab + 1);
    if (secondTab < 0) continue;
    const added = token.slice(0, firstTab);
    const deleted = token.slice(firstTab + 1, secondTab);
    if (!isCount(added) || !isCount(deleted)) continue;
    const path = token.slice(secondTab + 1);
    const spot = files.get(path) ?? { path, commits: 0, added: 0, deleted: 0 };
    spot.commits++;
    spot.added += added === "-" ? 0 : Number(added);
    spot.deleted += deleted === "-" ? 0 : Number(deleted);
    files.set(path, spot);
  }
  // Code-point order for ties (localeCompare costs ICU collation on every comparison).
  const ranked = [...files.values()].sort(
    (a, b) => b.commits - a.commits || b.added + b.deleted - (a.added + a.deleted) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0),
  );
  return { commits, files: ranked };
}

/** A numstat count: digits, or "-" for a binary file. */
function isCount(text: string): boolean {
  return text === "-" || (text !== "" && /^\d+$/.test(text));
}
