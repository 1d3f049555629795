// A language server's WorkspaceEdit (rename, code action, organize imports, formatting) applied so
// that a server can neither write outside the workspace nor break the code unseen: every URI through the jail (workspace-edit.ts), every file still the
// content the server computed the edit on, the new content checked by the server before anything is
// written (it is sent as an unsaved change, so the errors it would introduce or fix are known), then
// written all files or none (ctx.fs.commit), or only shown (dry run), or held back when it would
// introduce errors and the caller said onlyIfNoNewErrors. What the server was shown is put back to
// the files' content when nothing is written. Files the edit renames or deletes (edit-plan.ts) are
// shown the same way: the moved content opened at its new path, the old path closed and announced
// deleted (workspace/didChangeWatchedFiles), so importers left pointing at it show their errors.
import type { Diagnostic, WorkspaceEdit } from "vscode-languageserver-protocol";
import { ToolError } from "../errors.ts";
import { toFileUri } from "../lib/paths/file-uri.ts";
import type { WorkspacePath } from "../security/jail/workspace-path.ts";
import type { FileWrite, WorkspaceFs } from "../workspace/workspace-fs.ts";
import { encode, planChanges, type PlannedPath } from "./edit-plan.ts";
import type { LanguageServer } from "./language-server.ts";
import { checkWorkspaceEdit } from "./workspace-edit.ts";

/** Files whose errors are compared: the edited ones, then others the server has open. */
const MAX_CHECKED_FILES = 24;
/** workspace/didChangeWatchedFiles change types. */
const CREATED = 1;
const DELETED = 3;

export interface EditedFile {
  /** Where the file is after the edit (a deleted one: where it was). */
  readonly path: WorkspacePath;
  /** Root-relative. */
  readonly relative: string;
  /** Root-relative path a renamed file had; `replaced`: a file that was at its new path is replaced. */
  readonly movedFrom?: { relative: string; replaced: boolean };
  /** undefined: the edit creates the file. */
  readonly before: string | undefined;
  /** undefined: the edit deletes the file. */
  readonly after: string | undefined;
  /** The bytes written (undefined for a deleted file). */
  readonly data: Uint8Array | undefined;
}
export interface ErrorAt {
  file: string;
  diagnostic: Diagnostic;
}

export interface EditOutcome {
  /** Files whose content the edit changes (or creates). */
  files: EditedFile[];
  introduced: ErrorAt[];
  fixed: ErrorAt[];
  /** How many files' errors were compared, and whether each answer was for the content asked. */
  checkedFiles: number;
  diagnosticsCurrent: boolean;
  written: boolean;
  /** Why nothing was written: "dry run", or the errors it would introduce. */
  heldBack?: string;
}

export interface ApplyEditOptions {
  dryRun: boolean;
  onlyIfNoNewErrors: boolean;
  signal: AbortSignal;
}

interface ApplyEditDeps {
  fs: WorkspaceFs;
  languageOf(relative: string): string | undefined;
  /** How long a push-only server gets to publish diagnostics for a version. */
  pushWaitMs: number;
}

export async function applyWorkspaceEdit(
  server: LanguageServer,
  edit: WorkspaceEdit,
  opts: ApplyEditOptions & ApplyEditDeps,
): Promise<EditOutcome> {
  const checked = await checkWorkspaceEdit(edit, (uri, o) => opts.fs.resolve(uri, o));
  const plan = [...(await planChanges({ fs: opts.fs, openText: (path) => server.openText(path) }, checked.changes)).values()].filter(
    changes,
  );
  const files = editedFiles(plan);
  if (plan.length === 0)
    return {
      files,
      introduced: [],
      fixed: [],
      checkedFiles: 0,
      diagnosticsCurrent: true,
      written: false,
      heldBack: "the edit changes nothing",
    };
  const handled = (path: WorkspacePath) => {
    const language = opts.languageOf(opts.fs.relative(path));
    return language !== undefined && server.launch.spec.languages.includes(language) ? language : undefined;
  };
  const touched = new Set<string>(plan.map((p) => p.path));
  const others = server.openPaths().filter((p) => !touched.has(p) && handled(p) !== undefined);
  // A moved file's errors are named by its new path before the edit too, so they are not "fixed" in one file and "introduced" in another.
  const movedTo = new Map<string, string>();
  for (const p of plan) if (p.proposed?.from !== undefined && p.proposed.from !== p.path) movedTo.set(p.proposed.from, p.relative);
  // A deleted file's own errors are not compared: they are not fixed, the file is gone.
  const kept = (p: PlannedPath, state: "disk" | "proposed") =>
    p[state] !== undefined && (state === "proposed" || p.proposed !== undefined || movedTo.has(p.path));
  const scopeOf = (state: "disk" | "proposed") =>
    [...plan.filter((p) => kept(p, state) && handled(p.path) !== undefined).map((p) => p.path), ...others].slice(0, MAX_CHECKED_FILES);
  const gone = plan.filter((p) => p.disk !== undefined && p.proposed === undefined).map((p) => p.path);
  let written = false;
  let shown = false;
  try {
    const diagnose = async (state: "disk" | "proposed") => {
      if (state === "proposed") {
        // Every file gets its new content before one is checked: a rename's files only agree together.
        shown = true;
        for (const p of plan) {
          const language = handled(p.path);
          if (p.proposed !== undefined && language !== undefined) await server.sync(p.path, language, { text: p.proposed.text });
        }
        // Files the edit removes are closed and said deleted (workspace/didChangeWatchedFiles), last:
        // the server then sees them gone though they are still on disk.
        for (const path of gone) await server.close(path);
        // tsgo handles a didClose with its next request, and re-reads the disk on it: a deletion
        // said before that is undone (measured with 7.0.2), so one request goes first.
        const first = scopeOf("proposed")[0];
        if (gone.length > 0 && first !== undefined && server.supports("textDocument/diagnostic"))
          await server.request("textDocument/diagnostic", { textDocument: { uri: toFileUri(first) } }, { signal: opts.signal });
        // Said once: tsgo takes a second deletion of the same file, or a creation of another one
        // (the watcher's, after an earlier write), as a cue to re-read the disk, where the file still is.
        if (gone.length > 0)
          await server.notify("workspace/didChangeWatchedFiles", {
            changes: gone.map((path) => ({ uri: toFileUri(path), type: DELETED })),
          });
      }
      let current = true;
      const errors: ErrorAt[] = [];
      for (const path of scopeOf(state)) {
        if (opts.signal.aborted)
          throw new ToolError("cancelled", "The edit was cancelled before anything was written", { suggestion: "Call again to apply it." });
        const planned = plan.find((p) => p.path === path);
        const text = state === "proposed" ? planned?.proposed?.text : undefined;
        const found = await server.diagnosticsFor(path, handled(path) as string, {
          deadline: Date.now() + opts.pushWaitMs,
          signal: opts.signal,
          ...(text === undefined ? {} : { text }),
        });
        current &&= found.how !== "none";
        const file = (state === "disk" ? movedTo.get(path) : undefined) ?? opts.fs.relative(path);
        for (const d of found.items) if ((d.severity ?? 1) === 1) errors.push({ file, diagnostic: d });
      }
      return { errors, current };
    };
    const before = await diagnose("disk");
    const after = await diagnose("proposed");
    const introduced = difference(after.errors, before.errors);
    const fixed = difference(before.errors, after.errors);
    const outcome: EditOutcome = {
      files,
      introduced,
      fixed,
      checkedFiles: scopeOf("proposed").length,
      diagnosticsCurrent: before.current && after.current,
      written: false,
    };
    if (opts.dryRun) return { ...outcome, heldBack: "dry run" };
    if (opts.onlyIfNoNewErrors && introduced.length > 0)
      return {
        ...outcome,
        heldBack: `it would introduce ${introduced.length} error${introduced.length === 1 ? "" : "s"} (onlyIfNoNewErrors)`,
      };
    const byPath = new Map<string, PlannedPath>(plan.map((p) => [p.path, p]));
    await opts.fs.commit(plan.map((p) => writeOf(p, byPath)));
    written = true;
    return { ...outcome, written: true };
  } finally {
    await tellServer(server, plan, { written, shown, language: (path) => handled(path) ?? "plaintext" }).catch(() => undefined);
  }
}

/** After the edit: what the server was shown goes back to what the files hold; moved and deleted files are announced as they now are. */
async function tellServer(
  server: LanguageServer,
  plan: readonly PlannedPath[],
  opts: { written: boolean; shown: boolean; language(path: WorkspacePath): string },
): Promise<void> {
  if (!opts.shown) return;
  // A path with nothing on it now is closed by the sync (it cannot be read); one put back is re-read.
  if (!opts.written) for (const p of plan) await server.sync(p.path, opts.language(p.path)).catch(() => undefined);
  const events = plan
    .filter((p) => (p.disk === undefined) !== (p.proposed === undefined))
    .map((p) => {
      const exists = opts.written ? p.proposed !== undefined : p.disk !== undefined;
      return { uri: toFileUri(p.path), type: exists ? CREATED : DELETED };
    });
  if (events.length > 0) await server.notify("workspace/didChangeWatchedFiles", { changes: events });
}

/** A path whose content or existence the edit changes. */
function changes(p: PlannedPath): boolean {
  if (p.disk === undefined || p.proposed === undefined) return p.disk !== p.proposed;
  return p.proposed.text !== p.disk.text || p.proposed.bom !== p.disk.bom;
}

function writeOf(p: PlannedPath, plan: ReadonlyMap<string, PlannedPath>): FileWrite {
  const expect = p.disk === undefined ? ("absent" as const) : p.disk.expect;
  if (p.proposed === undefined) return { label: p.relative, path: p.path, data: new Uint8Array(), expect, remove: true };
  // A moved file keeps its permission bits at its new path (an existing file there keeps its own).
  const mode = movedFrom(p, plan)?.disk?.mode;
  return { label: p.relative, path: p.path, data: encode(p.proposed), expect, ...(mode === undefined ? {} : { mode }) };
}

/** The path on disk whose file the edit moves to `p`, when there is one. */
function movedFrom(p: PlannedPath, plan: ReadonlyMap<string, PlannedPath>): PlannedPath | undefined {
  const from = p.proposed?.from;
  return from === undefined || from === p.path ? undefined : plan.get(from);
}

/** What the outcome lists: a moved file once (at its new path), with the content it had where it was. */
function editedFiles(plan: readonly PlannedPath[]): EditedFile[] {
  const byPath = new Map<string, PlannedPath>(plan.map((p) => [p.path, p]));
  const moved = new Set<string>();
  const files: EditedFile[] = [];
  for (const p of plan) {
    if (p.proposed === undefined) continue;
    const from = movedFrom(p, byPath);
    if (from !== undefined) moved.add(from.path);
    files.push({
      path: p.path,
      relative: p.relative,
      ...(from === undefined ? {} : { movedFrom: { relative: from.relative, replaced: p.disk !== undefined } }),
      before: (from ?? p).disk?.text,
      after: p.proposed.text,
      data: encode(p.proposed),
    });
  }
  for (const p of plan)
    if (p.proposed === undefined && p.disk !== undefined && !moved.has(p.path))
      files.push({ path: p.path, relative: p.relative, before: p.disk.text, after: undefined, data: undefined });
  return files;
}

/** Errors of `a` not in `b`, matched by file, code and message (positions move with the edit). */
function difference(a: readonly ErrorAt[], b: readonly ErrorAt[]): ErrorAt[] {
  const key = (e: ErrorAt) =>
    `${e.file}\0${String(e.diagnostic.code ?? "")}\0${typeof e.diagnostic.message === "string" ? e.diagnostic.message : e.diagnostic.message.value}`;
  const left = new Map<string, number>();
  for (const e of b) left.set(key(e), (left.get(key(e)) ?? 0) + 1);
  return a.filter((e) => {
    const n = left.get(key(e)) ?? 0;
    if (n === 0) return true;
    left.set(key(e), n - 1);
    return false;
  });
}
