// With the workspace a subfolder of its repository (a package of a monorepo), a read tool sees
// either the workspace's part of the repository or all of it, and a partial view must never pass
// for the whole: "clean" for a package says nothing of the edits beside it. These are the words each
// tool adds to its answer then, with a count of what lies outside when git can say it cheaply.
import { NO_DIFF_PROGRAMS } from "./git-environment.ts";
import type { RunResult } from "../../capabilities/exec/exec.ts";
import type { Repository } from "./repository.ts";
import { outsideWorkspace } from "./workspace-scope.ts";

/** Most outside paths named in a note; the rest are counted. */
const NAMED = 5;
/** git's name lists for the whole repository; a bigger one is cut, and the note says "at least". */
const LIST_MAX_BYTES = 8 * 1024 * 1024;

/** Where the repository's top level is, from the workspace root ("../.."). */
export function repositoryTop(repo: Pick<Repository, "prefix">): string {
  const depth = repo.prefix.split("/").filter((p) => p !== "").length;
  return Array.from({ length: depth }, () => "..").join("/");
}

/** Paths outside the workspace (relative to the top level); cut when git's list passed its cap. */
export interface OutsideList {
  paths: string[];
  cut: boolean;
}

/**
 * The note for a view of the workspace's part only; undefined at the repository's top level.
 * `outside` (paths relative to the top level) are the changes beside the workspace left out.
 */
export function workspaceOnlyNote(repo: Pick<Repository, "prefix">, opts: { outside?: OutsideList; what: string }): string | undefined {
  if (repo.prefix === "") return undefined;
  const head = `Only the workspace, folder ${repo.prefix} of the repository at ${repositoryTop(repo)}`;
  if (opts.outside === undefined) return `${head}: ${opts.what} outside it are not included.`;
  const { paths, cut } = opts.outside;
  if (paths.length === 0 && !cut) return `${head}: nothing outside it has ${opts.what} either.`;
  const shown = paths.slice(0, NAMED).join(", ");
  const more = paths.length > NAMED ? ` and ${paths.length - NAMED} more` : "";
  return `${head}: ${cut ? "at least " : ""}${paths.length} path(s) outside it with ${opts.what} are not included (${shown}${more}, relative to the repository's top level); a terminal at the top level shows them.`;
}

/** The note for a view of the whole repository; undefined at its top level. */
export function wholeRepositoryNote(repo: Pick<Repository, "prefix">, opts: { narrower: string }): string | undefined {
  if (repo.prefix === "") return undefined;
  return `The whole repository at ${repositoryTop(repo)}, not only the workspace (its folder ${repo.prefix}); ${opts.narrower}.`;
}

/** Paths with changes outside the workspace: the working tree and index (untracked folders as one path). */
export async function changedOutside(repo: Repository): Promise<OutsideList> {
  if (repo.prefix === "") return { paths: [], cut: false };
  const out = await repo.run(["status", "--porcelain", "-z", "--no-renames", "--untracked-files=normal"], {
    maxOutputBytes: LIST_MAX_BYTES,
  });
  // Porcelain v1 records are "XY path"; without renames there is one path per record.
  return outsideOf(repo, out, (r) => (r.length > 3 ? r.slice(3) : ""));
}

/** Names of files a diff-like command would show over the whole repository, those outside the workspace. */
export async function diffedOutside(repo: Repository, args: readonly string[]): Promise<OutsideList> {
  if (repo.prefix === "") return { paths: [], cut: false };
  const out = await repo.run([args[0] ?? "diff", ...NO_DIFF_PROGRAMS, "--name-only", "-z", ...args.slice(1)], {
    maxOutputBytes: LIST_MAX_BYTES,
  });
  return outsideOf(repo, out, (r) => r);
}

/** The NUL-separated records' paths outside the workspace; a cut list loses its last, partial record. */
function outsideOf(repo: Repository, out: RunResult, path: (record: string) => string): OutsideList {
  const records = out.stdout.split("\0");
  if (out.stdoutTruncated) records.pop();
  const paths = records.map(path).filter((p) => p !== "");
  return { paths: outsideWorkspace(repo, paths), cut: out.stdoutTruncated };
}
