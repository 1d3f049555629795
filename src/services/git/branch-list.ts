// Parses `git for-each-ref` with BRANCH_FORMAT, one record per ref (records.ts).
import { records } from "./records.ts";

export const BRANCH_FORMAT =
  "--format=%(HEAD)%1f%(refname)%1f%(objectname:short=10)%1f%(upstream:short)%1f%(upstream:track,nobracket)%1f%(committerdate:short)%1f%(contents:subject)%1e";

interface BranchEntry {
  name: string;
  commit: string;
  date: string;
  subject: string;
  upstream?: string;
  ahead?: number;
  behind?: number;
  /** The upstream branch was deleted on the remote. */
  upstreamGone?: boolean;
}

interface BranchList {
  current: string | null;
  local: BranchEntry[];
  remote: BranchEntry[];
}

export function parseBranches(output: string): BranchList {
  const list: BranchList = { current: null, local: [], remote: [] };
  for (const [head = "", ref = "", commit = "", upstream = "", track = "", date = "", subject = ""] of records(output)) {
    const remote = ref.startsWith("refs/remotes/");
    // refs/remotes/origin/HEAD is the remote's default-branch pointer, not a branch.
    if ((!remote && !ref.startsWith("refs/heads/")) || (remote && ref.endsWith("/HEAD"))) continue;
    const name = ref.slice(remote ? "refs/remotes/".length : "refs/heads/".length);
    const entry: BranchEntry = { name, commit, date, subject, ...(upstream === "" ? {} : { upstream }), ...tracking(track) };
    (remote ? list.remote : list.local).push(entry);
    if (head === "*") list.current = name;
  }
  return list;
}

/** "ahead 1, behind 2", "gone" or "" (in sync or no upstream). */
function tracking(track: string): Pick<BranchEntry, "ahead" | "behind" | "upstreamGone"> {
  if (track === "gone") return { upstreamGone: true };
  const ahead = /ahead (\d+)/.exec(track)?.[1];
  const behind = /behind (\d+)/.exec(track)?.[1];
  return { ...(ahead === undefined ? {} : { ahead: Number(ahead) }), ...(behind === undefined ? {} : { behind: Number(behind) }) };
}
