// The diagnostics a server gave for a file, kept with the file's text and the state of the
// workspace as the server saw it (open-documents.ts `state`, which goes up with every change on
// disk the watcher hears, every content sync and settings change): asked again with the same text
// at the same state, the server would compute the same answer, so a warm whole-workspace check
// does not open every file again (a server keeps 64 open; reopening one makes it analyse the file
// anew, and a push-only server is waited for file by file). Only used while the workspace watcher
// sees every change. A pulled answer is kept; a pushed one only where everything it can depend on
// is a file whose changes the watcher hears (then a change to it moves the state): a JSON or YAML
// file with no schema or a schema the watcher hears changing, HTML and CSS (checked on their own
// text). Whether it hears a schema is asked of the watcher (WorkspaceWatcher.hearsChange), for the
// folder the schema is named in and the one its real path is in: a schema reached through a
// symlink out of the workspace, or into a tree the watcher skips (node_modules, dist), is not
// heard changing, though its path looks like a workspace path. Not kept either: a schema named by
// URL (fetched from the network, or failing to be), and the push servers that read outside the
// workspace (shellcheck's ~/.shellcheckrc and sourced files, pyright's site-packages, clangd's
// system headers, gopls' module cache). A server stopped to keep the pool
// under its cap, or for being idle, with no proposed content open, saw the workspace as it is on
// disk: its answers at its last state stay with its (server, root) while no change is heard and
// are given without starting it, then taken over by the next server started there with the same
// settings (it would compute them again from the same files); a change heard meanwhile drops them.
import type { Diagnostic } from "vscode-languageserver-protocol";
import { dirname, normalize } from "../lib/paths/posix-path.ts";

/** As many as a whole-workspace check covers (lsp-backend.ts); the oldest entries go first. */
const MAX_ENTRIES = 2000;

/** Push servers' languages whose answer depends on the file's text alone, or on a schema it names. */
const SELF_CONTAINED = new Set(["html", "css", "scss", "less"]);
const SCHEMA_NAMING = new Set(["json", "jsonc", "yaml"]);
/** `"$schema": "..."` in JSON, `# yaml-language-server: $schema=...` in YAML. */
const JSON_SCHEMA = /"\$schema"\s*:\s*"([^"]*)"/g;
const YAML_SCHEMA = /yaml-language-server:\s*\$schema=(\S+)/g;

interface Entry {
  state: number;
  text: string;
  items: Diagnostic[];
  how: "pull" | "push";
}

/** The state of answers kept from a stopped server, in no running server's numbering. */
const STOPPED = -1;

export class KeptDiagnostics {
  private readonly byPath = new Map<string, Entry>();
  /** The stopped server's settings and name, while its answers are kept. */
  private retired: { settings: string; serverName: string } | undefined;

  /** The kept answer for `path`, if it was computed at `state` for exactly `text`. */
  lookup(path: string, at: { state: number; text: string | undefined }): Pick<Entry, "items" | "how"> | undefined {
    const entry = this.byPath.get(path);
    return entry !== undefined && entry.state === at.state && entry.text === at.text ? { items: entry.items, how: entry.how } : undefined;
  }

  /** Whether an answer computed at `state` is kept for `path` (then its text is worth reading). */
  has(path: string, state: number): boolean {
    return this.byPath.get(path)?.state === state;
  }

  keep(path: string, entry: Entry): void {
    this.byPath.delete(path);
    this.byPath.set(path, entry);
    if (this.byPath.size > MAX_ENTRIES) this.byPath.delete(this.byPath.keys().next().value as string);
  }

  clear(): void {
    this.byPath.clear();
    this.retired = undefined;
  }

  /** The server stops at `state`; `clean`: no proposed content open, so it saw the files as they are on disk. */
  retire(at: { state: number; clean: boolean; settings: string; serverName: string }): void {
    for (const [path, entry] of this.byPath) {
      if (at.clean && entry.state === at.state) entry.state = STOPPED;
      else this.byPath.delete(path);
    }
    this.retired = at.clean ? { settings: at.settings, serverName: at.serverName } : undefined;
  }

  /** A stopped server's answer for `path` with exactly `text`, and the server's name. */
  retiredAnswer(path: string, text: string | undefined): { items: Diagnostic[]; how: "pull" | "push"; server: string } | undefined {
    const found = this.retired === undefined ? undefined : this.lookup(path, { state: STOPPED, text });
    return found === undefined || this.retired === undefined ? undefined : { ...found, server: this.retired.serverName };
  }

  /** A new server starts with `settings` at state 0: a stopped one's answers become its own if its settings were the same. */
  adopt(settings: string): void {
    const same = this.retired?.settings === settings;
    for (const [path, entry] of this.byPath) {
      if (same && entry.state === STOPPED) entry.state = 0;
      else this.byPath.delete(path);
    }
    this.retired = undefined;
  }
}

/** Whether a change to the file at an absolute path is heard (WorkspaceWatcher.hearsChange, through the pool's hooks). */
export type Hears = (path: string) => Promise<boolean>;

/**
 * Whether a push server's answer for `path` (absolute) with `text` depends only on files whose
 * changes are heard, so the workspace state proves it current: see the header.
 */
export async function pushedAnswerKeepable(at: { languageId: string; path: string; text: string }, hears: Hears): Promise<boolean> {
  if (SELF_CONTAINED.has(at.languageId)) return true;
  if (!SCHEMA_NAMING.has(at.languageId)) return false;
  const pattern = at.languageId === "yaml" ? YAML_SCHEMA : JSON_SCHEMA;
  for (const match of at.text.matchAll(pattern)) {
    // A file URI the server cannot decode either is no file it reads: nothing to keep.
    const schema = attempt(() => schemaPath(match[1] ?? "", at.path));
    if (schema === undefined || !(await hears(schema))) return false;
  }
  return true;
}

/** The absolute path a schema reference names (a relative path, an absolute one or a file URI); undefined for a URL. */
function schemaPath(ref: string, from: string): string | undefined {
  if (ref === "" || (/^[a-z][a-z0-9+.-]*:/i.test(ref) && !ref.startsWith("file://"))) return undefined;
  const bare = ref.split(/[?#]/)[0] ?? "";
  const target = bare.startsWith("file://")
    ? decodeURIComponent(bare.slice("file://".length))
    : bare.startsWith("/")
      ? bare
      : `${dirname(from)}/${bare}`;
  const path = normalize(target);
  return path.startsWith("/") && path !== "/" ? path : undefined;
}

function attempt<T>(fn: () => T): T | undefined {
  try {
    return fn();
  } catch {
    return undefined;
  }
}
