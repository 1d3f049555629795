// A language server's WorkspaceEdit (rename, code action, organize imports, formatting) applied so
// that a server can neither write outside the workspace nor break the code unseen: every URI
// through the jail (workspace-edit.ts), every file still the content the server computed the edit
// on, written all files or none (ctx.fs.commit), or only shown (dry run), or held back when the
// caller said onlyIfNoNewErrors and the new content would introduce errors. The errors are
// compared over the edited files and the files the caller names as using what the edit changes
// (every file that mentions a renamed symbol), not only those open. A dry run (and
// onlyIfNoNewErrors) predicts them: the new content is sent as unsaved changes, every file before
// one is checked, since a rename's files only agree together; files the edit renames or deletes
// (edit-plan.ts) are shown the same way, the moved content opened at its new path, the old path
// closed and announced deleted. A written edit is verified after the fact: the server is told the
// files changed (Changed, Created, Deleted), allowed to catch up, and the errors counted again on
// the files as written; or, when the caller's language checker counts the written edit instead
// (serverCheck: false), not asked of a server whose first diagnostics are slow. A preview's digest
// lets a later call apply exactly what was shown, or nothing. What the server was shown is put back
// to the files' content when nothing is written.
import type { WorkspaceEdit } from "vscode-languageserver-protocol";
import { toFileUri } from "../lib/paths/file-uri.ts";
import type { WorkspacePath } from "../security/jail/workspace-path.ts";
import type { FileWrite, WorkspaceFs } from "../workspace/workspace-fs.ts";
import { difference, type ErrorAt, errorsOf, type FileSet } from "./edit-errors.ts";
import { encode, planChanges, type PlannedPath } from "./edit-plan.ts";
import type { LanguageServer } from "./language-server.ts";
import { checkWorkspaceEdit } from "./workspace-edit.ts";

export type { ErrorAt } from "./edit-errors.ts";

/**
 * Files whose errors the server is asked for, within what it keeps open; the rest are named as not
 * checked, unless the language's checker covers them (src/services/diagnostics/edit-check.ts).
 */
const MAX_CHECKED_FILES = 48;
/** How long a written edit waits for the server's own work to end before its errors are counted again. */
const CATCH_UP_MS = 10_000;
/** workspace/didChangeWatchedFiles change types. */
const CREATED = 1;
const CHANGED = 2;
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

export interface EditOutcome {
  /** Files whose content the edit changes (or creates). */
  files: EditedFile[];
  introduced: ErrorAt[];
  fixed: ErrorAt[];
  /** How many files' errors were compared; how many more that use the change were past the bound. */
  checkedFiles: number;
  notChecked: number;
  /** Root-relative names of the files past the bound (a checker may cover them). */
  notCheckedFiles?: string[];
  /** Files the server said nothing about in time: their errors are unknown. */
  late: string[];
  /** true: counted on the files as written, after the server caught up; false: predicted on unsaved content. */
  verified: boolean;
  /** The call's time limit (`stopBy`) came before the server answered for some files (named in `late`). */
  cut?: boolean;
  written: boolean;
  /** Why nothing was written: "dry run", or the errors it would introduce. */
  heldBack?: string;
  /** Of the planned content: passed back as `expectDigest`, exactly this edit is applied, or nothing. */
  digest: string;
  /** The language's own checker, run before and after the write (the tool's, not the server's). */
  checks?: CheckerNote[];
  /** Files whose predicted errors are unknown and left out of the counts, and why (ServerSpec.readsIncludedFromDisk). */
  blind?: { files: string[]; why: string };
}

export interface CheckerNote {
  checker: string;
  /** Files it checked ("module": the whole module). */
  scope: string;
  /** Its new errors (also in `introduced` unless the server reported them too). */
  introduced: number;
  /** Files the server did not check (past its bound, or not asked) that it checked. */
  coveredUnchecked?: number;
  /** Why it could not check, when it could not. */
  failed?: string;
}

export interface ApplyEditOptions {
  dryRun: boolean;
  onlyIfNoNewErrors: boolean;
  signal: AbortSignal;
  /** Files that use what the edit changes, compared too (every file mentioning a renamed symbol). */
  alsoCheck?: readonly WorkspacePath[];
  /** A preview's digest: the edit is written only if it is still the one previewed. */
  expectDigest?: string | undefined;
  /** Awaited just before the files are written (a checker's run over them as they were). */
  beforeWrite?: () => Promise<void>;
  /** Called once the files are written (a checker's run over them starts while the server catches up). */
  afterWrite?: () => void;
  /**
   * Epoch ms by which the server's part of the check ends (the call's limit less the time its answer
   * needs): the wait for the server to catch up and each file's diagnostics stop there, and the
   * files not answered by then are named late, with `cut` set, rather than the call outlasting its limit.
   */
  stopBy?: number | undefined;
  /**
   * false: the written edit's errors are not asked of the server (the language's checker counts
   * them), so no wait for a slow server's first diagnostics; a dry run or onlyIfNoNewErrors still
   * asks it, since only the server sees unsaved content.
   */
  serverCheck?: boolean;
  /**
   * Root-relative files that include one of `changed`, directly or not, for a server that reads
   * included files from disk; undefined when that cannot be known (every other file is then blind).
   */
  includersOf?: (changed: readonly string[]) => Promise<ReadonlySet<string> | undefined>;
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
  const digest = digestOf(plan);
  const base: EditOutcome = {
    files: editedFiles(plan),
    introduced: [],
    fixed: [],
    checkedFiles: 0,
    notChecked: 0,
    late: [],
    verified: false,
    written: false,
    digest,
  };
  if (plan.length === 0) return { ...base, heldBack: "the edit changes nothing" };
  const changed = opts.expectDigest !== undefined && opts.expectDigest !== digest;
  const handled = (path: WorkspacePath) => {
    const language = opts.languageOf(opts.fs.relative(path));
    return language !== undefined && server.launch.spec.languages.includes(language) ? language : undefined;
  };
  const touched = new Set<string>(plan.map((p) => p.path));
  const users = [...new Set(opts.alsoCheck ?? [])].filter((p) => !touched.has(p) && handled(p) !== undefined);
  const others = server.openPaths().filter((p) => !touched.has(p) && !users.includes(p) && handled(p) !== undefined);
  // A moved file's errors are named by its new path before the edit too, so they are not "fixed" in one file and "introduced" in another.
  const movedTo = new Map<string, string>();
  for (const p of plan) if (p.proposed?.from !== undefined && p.proposed.from !== p.path) movedTo.set(p.proposed.from, p.relative);
  // A deleted file's own errors are not compared: they are not fixed, the file is gone.
  const kept = (p: PlannedPath, state: "disk" | "proposed") =>
    p[state] !== undefined && (state === "proposed" || p.proposed !== undefined || movedTo.has(p.path));
  const wanted = (state: "disk" | "proposed") => [
    ...plan.filter((p) => kept(p, state) && handled(p.path) !== undefined).map((p) => p.path),
    ...users,
  ];
  const scope = (state: "disk" | "proposed"): FileSet => ({
    paths: [...wanted(state), ...others].slice(0, MAX_CHECKED_FILES),
    language: (path) => handled(path) as string,
    name: (path) => (state === "disk" ? movedTo.get(path) : undefined) ?? opts.fs.relative(path),
  });
  const predicts = opts.dryRun || opts.onlyIfNoNewErrors || changed;
  const asksServer = predicts || opts.serverCheck !== false;
  const checkedFiles = asksServer ? scope("proposed").paths.length : 0;
  const pastBound = wanted("proposed").slice(MAX_CHECKED_FILES);
  const notChecked = asksServer ? pastBound.length : wanted("proposed").length;
  const notCheckedFiles = (asksServer ? pastBound : wanted("proposed")).map((p) => opts.fs.relative(p));
  const call = { pushWaitMs: opts.pushWaitMs, signal: opts.signal, stopBy: opts.stopBy };
  let written = false;
  let shown = false;
  let before: Awaited<ReturnType<typeof errorsOf>> = { errors: [], late: [] };
  try {
    if (asksServer) before = await errorsOf(server, scope("disk"), call);
    if (predicts) {
      shown = true;
      await showProposed(server, plan, { handled, first: scope("proposed").paths[0], signal: opts.signal });
      const texts = new Map(plan.map((p) => [p.path as string, p.proposed?.text]));
      const predicted = await errorsOf(server, { ...scope("proposed"), text: (path) => texts.get(path) }, call);
      const blind = await blindFiles(server, plan, { checked: scope("proposed"), includersOf: opts.includersOf });
      const seen = (e: ErrorAt) => !blind?.files.includes(e.file);
      const outcome: EditOutcome = {
        ...base,
        introduced: difference(predicted.errors.filter(seen), before.errors.filter(seen)),
        fixed: difference(before.errors.filter(seen), predicted.errors.filter(seen)),
        checkedFiles,
        notChecked,
        notCheckedFiles,
        late: [...new Set([...before.late, ...predicted.late])],
        ...(before.cut === true || predicted.cut === true ? { cut: true } : {}),
        ...(blind === undefined ? {} : { blind }),
      };
      if (changed)
        return {
          ...outcome,
          heldBack: `it is not the edit previewed as ${opts.expectDigest} (the files or the server's answer changed since)`,
        };
      if (opts.dryRun) return { ...outcome, heldBack: "dry run" };
      if (outcome.introduced.length > 0)
        return {
          ...outcome,
          heldBack: `it would introduce ${outcome.introduced.length} error${outcome.introduced.length === 1 ? "" : "s"} (onlyIfNoNewErrors)`,
        };
      if (blind !== undefined)
        return {
          ...outcome,
          heldBack: `the errors of ${blind.files.length} file(s) cannot be predicted (onlyIfNoNewErrors); without it the written edit is checked as written`,
        };
    }
    const byPath = new Map<string, PlannedPath>(plan.map((p) => [p.path, p]));
    await opts.beforeWrite?.();
    await opts.fs.commit(plan.map((p) => writeOf(p, byPath)));
    written = true;
    opts.afterWrite?.();
  } finally {
    await tellServer(server, plan, { written, shown, language: (path) => handled(path) }).catch(() => undefined);
  }
  if (!asksServer) return { ...base, notChecked, notCheckedFiles, verified: true, written: true };
  // Verified after the fact: the files as written, once the server's own work has ended.
  await server.progress.idle(Math.min(Date.now() + CATCH_UP_MS, opts.stopBy ?? Number.POSITIVE_INFINITY), opts.signal);
  const after = await errorsOf(server, scope("proposed"), call);
  return {
    ...base,
    introduced: difference(after.errors, before.errors),
    fixed: difference(before.errors, after.errors),
    checkedFiles,
    notChecked,
    notCheckedFiles,
    late: [...new Set([...before.late, ...after.late])],
    ...(before.cut === true || after.cut === true ? { cut: true } : {}),
    verified: true,
    written: true,
  };
}

/**
 * The checked files whose prediction the server cannot make: those that include a file the edit
 * changes, when the server reads included files from disk (clangd); all but a lone edited file
 * when the includers are not known.
 */
async function blindFiles(
  server: LanguageServer,
  plan: readonly PlannedPath[],
  opts: { checked: FileSet; includersOf: ApplyEditOptions["includersOf"] },
): Promise<EditOutcome["blind"]> {
  if (server.launch.spec.readsIncludedFromDisk !== true) return undefined;
  const changed = plan.filter((p) => p.proposed !== undefined).map((p) => p.relative);
  const includers = await opts.includersOf?.(changed);
  const lone = changed.length === 1 ? changed[0] : undefined;
  const files = opts.checked.paths
    .map((path) => opts.checked.name(path))
    .filter((name) => (includers === undefined ? name !== lone : includers.has(name)));
  if (files.length === 0) return undefined;
  const named = changed.slice(0, 3).join(", ") + (changed.length > 3 ? ` and ${changed.length - 3} more` : "");
  const how = includers === undefined ? "may include" : "include, directly or not,";
  return {
    files,
    why: `they ${how} ${changed.length === 1 ? "" : "one of "}${named}, which ${server.serverName} reads from disk, not the edit's unsaved content; a written edit is checked as written`,
  };
}

/** The edit's new content sent to the server as unsaved changes, every file before one is checked; files it removes closed and said deleted. */
async function showProposed(
  server: LanguageServer,
  plan: readonly PlannedPath[],
  opts: { handled(path: WorkspacePath): string | undefined; first: WorkspacePath | undefined; signal: AbortSignal },
): Promise<void> {
  for (const p of plan) {
    const language = opts.handled(p.path);
    if (p.proposed !== undefined && language !== undefined) await server.sync(p.path, language, { text: p.proposed.text });
  }
  // Files the edit removes are closed and said deleted (workspace/didChangeWatchedFiles), last:
  // the server then sees them gone though they are still on disk.
  const gone = plan.filter((p) => p.disk !== undefined && p.proposed === undefined).map((p) => p.path);
  if (gone.length === 0) return;
  for (const path of gone) await server.close(path);
  // tsgo handles a didClose with its next request, and re-reads the disk on it: a deletion
  // said before that is undone (measured with 7.0.2), so one request goes first.
  if (opts.first !== undefined && server.supports("textDocument/diagnostic"))
    await server.request("textDocument/diagnostic", { textDocument: { uri: toFileUri(opts.first) } }, { signal: opts.signal });
  // Said once: tsgo takes a second deletion of the same file, or a creation of another one
  // (the watcher's, after an earlier write), as a cue to re-read the disk, where the file still is.
  await server.notify("workspace/didChangeWatchedFiles", { changes: gone.map((path) => ({ uri: toFileUri(path), type: DELETED })) });
  // What the server sees changed (files gone) without a content sync: kept answers are old now.
  server.filesChanged();
}

/**
 * After the edit, the server is told the files as they are: written, every touched path is synced
 * from disk and announced (Changed, Created, Deleted), so files that import them are checked
 * against the new content; not written, what it was shown is put back.
 */
async function tellServer(
  server: LanguageServer,
  plan: readonly PlannedPath[],
  opts: { written: boolean; shown: boolean; language(path: WorkspacePath): string | undefined },
): Promise<void> {
  if (!opts.written && !opts.shown) return;
  // A path with nothing on it now is closed by the sync (it cannot be read); one put back is re-read.
  for (const p of plan) {
    const language = opts.language(p.path);
    if (language !== undefined) await server.sync(p.path, language).catch(() => undefined);
    else if (server.openText(p.path) !== undefined) await server.close(p.path);
  }
  const exists = (p: PlannedPath) => (opts.written ? p.proposed !== undefined : p.disk !== undefined);
  const events = plan
    .filter((p) => opts.written || (p.disk === undefined) !== (p.proposed === undefined))
    .map((p) => ({ uri: toFileUri(p.path), type: !exists(p) ? DELETED : opts.written && p.disk !== undefined ? CHANGED : CREATED }));
  server.filesChanged();
  if (events.length > 0) await server.notify("workspace/didChangeWatchedFiles", { changes: events });
}

/** FNV-1a over the planned paths and contents: short, stable, the same for the same edit on the same files. */
function digestOf(plan: readonly PlannedPath[]): string {
  let hash = 0x811c9dc5;
  const feed = (text: string) => {
    for (let i = 0; i < text.length; i++) {
      hash ^= text.charCodeAt(i);
      hash = Math.imul(hash, 0x01000193) >>> 0;
    }
  };
  for (const p of [...plan].sort((a, b) => (a.relative < b.relative ? -1 : 1))) {
    feed(`${p.relative}\0${p.disk?.text ?? "\u0001absent"}\0${p.proposed?.text ?? "\u0001deleted"}\0`);
  }
  return hash.toString(16).padStart(8, "0");
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
