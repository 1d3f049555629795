// The files an edit may break, for the language's checker (edit-check.ts): those that mention an
// edited file's module name, and the files that mention theirs, a few links deep, since a change
// reaches a file through what re-exports or returns it (a package's __init__.py or index.ts
// re-exports a class; a factory in another module returns it): on the Python fixture, a commit
// changing Command.invoke broke the tests, which import only `clilib` and `clilib.plugin0`, while
// the answer said "0 introduced". A module imported as its folder (__init__.py, index.ts, mod.rs)
// is found by the folder's name. The language server is not asked about these (they would cost a
// request each); the checker, which checks files by the hundred in one run, is.
import type { ToolContext } from "../../capabilities/context.ts";
import { wholeWordMentions } from "../language/mentions.ts";

/** Links followed from an edited file. */
const MAX_DEPTH = 3;
/** Module names searched per link. */
const MAX_NAMES = 24;
const SEARCHES_AT_ONCE = 4;
/** Files returned at most (a files checker names at most 400 on one command line). */
const MAX_FILES = 400;
/** Files that name their folder as a module. */
const FOLDER_MODULES = new Set(["__init__", "index", "mod"]);

export interface Dependents {
  /** Root-relative files that may use what the edit changes, edited files not included. */
  files: string[];
  /** Whether a bound cut the search (more links, names or files than it follows). */
  cut: boolean;
}

/** The files that may be broken by an edit of root-relative `edited`, transitively by module name. */
export async function editDependents(ctx: ToolContext, edited: readonly string[]): Promise<Dependents> {
  const seen = new Set(edited);
  const searched = new Set<string>();
  const files: string[] = [];
  let cut = false;
  let frontier = [...edited];
  for (let depth = 0; frontier.length > 0; depth++) {
    const names = [...new Set(frontier.flatMap((f) => moduleNameOf(f) ?? []))].filter((n) => !searched.has(n));
    if (depth === MAX_DEPTH || files.length >= MAX_FILES) {
      cut ||= names.length > 0;
      break;
    }
    if (names.length > MAX_NAMES) cut = true;
    const next: string[] = [];
    const batch = names.slice(0, MAX_NAMES);
    for (const name of batch) searched.add(name);
    // A few searches at once: each is a short rg run.
    for (let i = 0; i < batch.length; i += SEARCHES_AT_ONCE) {
      for (const mentions of await Promise.all(batch.slice(i, i + SEARCHES_AT_ONCE).map((name) => wholeWordMentions(ctx, name)))) {
        if (mentions.cut) cut = true;
        for (const file of [...mentions.files.keys()].sort()) {
          if (seen.has(file)) continue;
          seen.add(file);
          next.push(file);
        }
      }
    }
    files.push(...next);
    frontier = next;
  }
  if (files.length > MAX_FILES) cut = true;
  return { files: files.slice(0, MAX_FILES), cut };
}

/** The name other files import a file by: its stem, or its folder's name for a package's own module. */
function moduleNameOf(file: string): string | undefined {
  const parts = file.split("/");
  const stem = (parts[parts.length - 1] ?? "").replace(/\.[^.]+$/, "");
  if (!FOLDER_MODULES.has(stem)) return /^[\w$-]+$/.test(stem) ? stem : undefined;
  const folder = parts[parts.length - 2];
  return folder === undefined || !/^[\w$-]+$/.test(folder) ? undefined : folder;
}
