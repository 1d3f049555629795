// With the workspace a subfolder of its repository (a package of a monorepo), a read tool sees
// either the workspace's part of the repository or all of it, and a partial view must never pass
// for the whole: "clean" for a package says nothing of the edits beside it. These are the words each
// tool adds to its answer then, with a count of what lies outside when git can say it cheaply.
import { NO_DIFF_PROGRAMS } from "./git-environment.ts";
import type { Repository } from "./repository.ts";
import { outsideWorkspace } from "./workspace-scope.ts";

/** Most outside paths named in a note; the rest are counted. */
const NAMED = 5;
/** git's name lists for the whole repository; a bigger one is cut, and counted short. */
const LIST_MAX_BYTES = 8 * 1024 * 1024;

/** Where the repository's top level is, from the workspace root ("../.."). */
export function repositoryTop(repo: Pick<Repository, "prefix">): string {
  const depth = repo.prefix.split("/").filter((p) => p !== "").length;
  return Array.from({ length: depth }, () => "..").join("/");
}

/**
 * The note for a view of the workspace's part only; undefined at the repository's top level.
 * `outside` (paths relative to the top level) are the changes beside the workspace left out.
 */
export function workspaceOnlyNote(
  repo: Pick<Repository, "prefix">,
  opts: { outside?: readonly string[]; what: string },
): string | undefined {
  if (repo.prefix === "") return undefined;
  const head = `Only the workspace, folder ${repo.prefix} of the repository at ${repositoryTop(repo)}`;
  if (opts.outside === undefined) return `${head}: ${opts.what} outside it are not included.`;
  if (opts.outside.length === 0) return `${head}: nothing outside it has ${opts.what} either.`;
  const shown = opts.outside.slice(0, NAMED).join(", ");
  const more = opts.outside.length > NAMED ? ` and ${opts.outside.length - NAMED} more` : "";
  return `${head}: ${opts.outside.length} path(s) outside it with ${opts.what} are not included (${shown}${more}, relative to the repository's top level); a terminal at the top level shows them.`;
}

/** The note for a view of the whole repository; undefined at its top level. */
export function wholeRepositoryNote(repo: Pick<Repository, "prefix">, opts: { narrower: string }): string | undefined {
  if (repo.prefix === "") return undefined;
  return `The whole repository at ${repositoryTop(repo)}, not only the workspace (its folder ${repo.prefix}); ${opts.narrower}.`;
}

/** Paths with changes outside the workspace: the working tree and index (untracked folders as one path). */
export async function changedOutside(repo: Repository): Promise<string[]> {
  if (repo.prefix === "") return [];
  const out = await repo.output(["status", "--porcelain", "-z", "--no-renames", "--untracked-files=normal"], {
    maxOutputBytes: LIST_MAX_BYTES,
  });
  // Porcelain v1 records are "XY path"; without renames there is one path per record.
  return outsideWorkspace(
    repo,
    out
      .split("\0")
      .filter((r) => r.length > 3)
      .map((r) => r.slice(3)),
  );
}

/** Names of files a diff-like command would show over the whole repository, those outside the workspace. */
export async function diffedOutside(repo: Repository, args: readonly string[]): Promise<string[]> {
  if (repo.prefix === "") return [];
  const out = await repo.output([args[0] ?? "diff", ...NO_DIFF_PROGRAMS, "--name-only", "-z", ...args.slice(1)], {
    maxOutputBytes: LIST_MAX_BYTES,
  });
  return outsideWorkspace(
    repo,
    out.split("\0").filter((p) => p !== ""),
  );
}
