// Parses `git status --porcelain=v2 --branch -z` (git-status(1), "Porcelain Format Version 2"):
// "# branch.*" headers, then one NUL-terminated record per entry; a rename or copy record is
// followed by its original path. Paths are relative to the repository's top level. Output cut by
// the output cap is parsed up to its last complete record.

type ChangeKind = "modified" | "added" | "deleted" | "renamed" | "copied" | "typechange";

export interface StatusChange {
  path: string;
  change: ChangeKind;
  /** The original path of a rename or copy. */
  from?: string;
  /** A submodule's state (git-status(1), the <sub> field): what changed inside it. */
  submodule?: string;
}

export interface ParsedStatus {
  /** null when HEAD is detached. */
  branch: string | null;
  /** null before the first commit. */
  commit: string | null;
  upstream: string | null;
  ahead: number;
  behind: number;
  staged: StatusChange[];
  unstaged: StatusChange[];
  untracked: string[];
  conflicts: { path: string; conflict: string }[];
}

const KINDS: Record<string, ChangeKind> = { M: "modified", A: "added", D: "deleted", R: "renamed", C: "copied", T: "typechange" };

// The two letters of an unmerged entry (git-status(1), "Short Format").
const CONFLICTS: Record<string, string> = {
  DD: "both deleted",
  AU: "added by us",
  UD: "deleted by them",
  UA: "added by them",
  DU: "deleted by us",
  AA: "both added",
  UU: "both modified",
};

/** `cut`: the output stopped mid-way, so what follows its last NUL is part of a record. */
export function parsePorcelainV2(output: string, opts: { cut?: boolean } = {}): ParsedStatus {
  const status: ParsedStatus = {
    branch: null,
    commit: null,
    upstream: null,
    ahead: 0,
    behind: 0,
    staged: [],
    unstaged: [],
    untracked: [],
    conflicts: [],
  };
  // Every record ends with a NUL, so the last field is "" in whole output and a fragment in cut output.
  const records = (opts.cut === true ? output.slice(0, output.lastIndexOf("\0") + 1) : output).split("\0");
  if (records[records.length - 1] === "") records.pop();
  for (let i = 0; i < records.length; i++) {
    const record = records[i] ?? "";
    const kind = record[0];
    if (kind === "#") header(status, record);
    else if (kind === "1") changed(status, fields(record, 9));
    else if (kind === "2") {
      // A rename whose original path fell past the cut is left out with it.
      if (i + 1 < records.length) changed(status, fields(record, 10), records[++i]);
      else i++;
    } else if (kind === "u") {
      const f = fields(record, 11);
      status.conflicts.push({ path: f[10] ?? "", conflict: CONFLICTS[f[1] ?? ""] ?? "unmerged" });
    } else if (kind === "?") status.untracked.push(record.slice(2));
  }
  return status;
}

function header(status: ParsedStatus, record: string): void {
  const [, name, ...rest] = record.split(" ");
  const value = rest.join(" ");
  if (name === "branch.oid") status.commit = value === "(initial)" ? null : value;
  else if (name === "branch.head") status.branch = value === "(detached)" ? null : value;
  else if (name === "branch.upstream") status.upstream = value;
  else if (name === "branch.ab") {
    const m = /^\+(\d+) -(\d+)$/.exec(value);
    status.ahead = Number(m?.[1] ?? 0);
    status.behind = Number(m?.[2] ?? 0);
  }
}

/** The first n-1 space-separated fields, and the rest (a path, which may hold spaces) as the last. */
function fields(record: string, n: number): string[] {
  const out: string[] = [];
  let at = 0;
  for (let k = 0; k < n - 1; k++) {
    const next = record.indexOf(" ", at);
    out.push(record.slice(at, next));
    at = next + 1;
  }
  out.push(record.slice(at));
  return out;
}

function changed(status: ParsedStatus, f: string[], from?: string): void {
  const xy = f[1] ?? "..";
  const path = f[f.length - 1] ?? "";
  const submodule = submoduleState(f[2] ?? "N...");
  const entry = (letter: string): StatusChange => ({
    path,
    change: KINDS[letter] ?? "modified",
    ...(from !== undefined && (letter === "R" || letter === "C") ? { from } : {}),
    ...(submodule === undefined ? {} : { submodule }),
  });
  if (xy[0] !== ".") status.staged.push(entry(xy[0] ?? "M"));
  if (xy[1] !== ".") status.unstaged.push(entry(xy[1] ?? "M"));
}

/** "S<c><m><u>": C = its commit changed, M = tracked changes inside, U = untracked files inside. */
function submoduleState(sub: string): string | undefined {
  if (sub[0] !== "S") return undefined;
  const parts = [
    sub[1] === "C" ? "new commits" : "",
    sub[2] === "M" ? "modified content" : "",
    sub[3] === "U" ? "untracked content" : "",
  ].filter((p) => p !== "");
  return parts.length === 0 ? "unchanged inside" : parts.join(", ");
}
