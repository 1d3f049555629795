// A language server's WorkspaceEdit (rename, code action, organize imports, formatting) applied the
// way issue 9, item 6 asks: every URI through the jail (workspace-edit.ts), every file still the
// content the server computed the edit on, the new content checked by the server before anything is
// written (it is sent as an unsaved change, so the errors it would introduce or fix are known), then
// written all files or none (ctx.fs.commit), or only shown (dry run), or held back when it would
// introduce errors and the caller said onlyIfNoNewErrors. What the server was shown is put back to
// the files' content when nothing is written.
import type { Diagnostic, WorkspaceEdit } from "vscode-languageserver-protocol";
import { ToolError } from "../errors.ts";
import type { WorkspacePath } from "../security/workspace-path.ts";
import { identityOf, type FileIdentity } from "../workspace/file-version.ts";
import type { FileWrite, WorkspaceFs } from "../workspace/workspace-fs.ts";
import type { LanguageServer } from "./language-server.ts";
import { applyTextEdits } from "./text-edits.ts";
import { checkWorkspaceEdit } from "./workspace-edit.ts";

const BOM = "\uFEFF";
/** Files whose errors are compared: the edited ones, then others the server has open. */
const MAX_CHECKED_FILES = 24;

export interface EditedFile {
  readonly path: WorkspacePath;
  /** Root-relative. */
  readonly relative: string;
  /** undefined: the edit creates the file. */
  readonly before: string | undefined;
  readonly after: string;
  readonly data: Uint8Array;
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

export interface ApplyEditDeps {
  fs: WorkspaceFs;
  languageOf(relative: string): string | undefined;
  /** How long a push-only server gets to publish diagnostics for a version. */
  pushWaitMs: number;
}

interface Planned {
  path: WorkspacePath;
  relative: string;
  before: string | undefined;
  after: string;
  bom: boolean;
  expect: { identity: FileIdentity; original: Uint8Array } | "absent";
}

export async function applyWorkspaceEdit(deps: ApplyEditDeps, server: LanguageServer, edit: WorkspaceEdit, opts: ApplyEditOptions): Promise<EditOutcome> {
  const plan = await planEdit(deps, server, edit);
  const edited = [...plan.values()].filter((f) => f.after !== f.before);
  const files = edited.map((f) => ({ path: f.path, relative: f.relative, before: f.before, after: f.after, data: encode(f) }));
  if (edited.length === 0) return { files, introduced: [], fixed: [], checkedFiles: 0, diagnosticsCurrent: true, written: false, heldBack: "the edit changes nothing" };
  const handled = (path: WorkspacePath) => {
    const language = deps.languageOf(deps.fs.relative(path));
    return language !== undefined && server.launch.spec.languages.includes(language) ? language : undefined;
  };
  const scope = [...edited.map((f) => f.path), ...server.openPaths().filter((p) => !plan.has(p))].filter((p) => handled(p) !== undefined).slice(0, MAX_CHECKED_FILES);
  const proposed = new Map(edited.map((f) => [f.path as string, f.after]));
  let written = false;
  try {
    const diagnose = async (withEdit: boolean) => {
      // Every file gets its new content before any is checked: a rename's files only agree together.
      if (withEdit) for (const [path, text] of proposed) if (handled(path as WorkspacePath) !== undefined) await server.sync(path as WorkspacePath, handled(path as WorkspacePath) as string, text);
      let current = true;
      const errors: ErrorAt[] = [];
      for (const path of scope) {
        if (opts.signal.aborted) throw new ToolError("cancelled", "The edit was cancelled before anything was written", { suggestion: "Call again to apply it." });
        const text = withEdit ? proposed.get(path) : undefined;
        // A file the edit creates has no errors before it.
        const planned = plan.get(path);
        if (!withEdit && planned !== undefined && planned.before === undefined) continue;
        const found = await server.diagnosticsFor(path, handled(path) as string, { deadline: Date.now() + deps.pushWaitMs, signal: opts.signal, ...(text === undefined ? {} : { text }) });
        current &&= found.how !== "none";
        for (const d of found.items) if ((d.severity ?? 1) === 1) errors.push({ file: deps.fs.relative(path), diagnostic: d });
      }
      return { errors, current };
    };
    const before = await diagnose(false);
    const after = await diagnose(true);
    const introduced = difference(after.errors, before.errors);
    const fixed = difference(before.errors, after.errors);
    const outcome: EditOutcome = { files, introduced, fixed, checkedFiles: scope.length, diagnosticsCurrent: before.current && after.current, written: false };
    if (opts.dryRun) return { ...outcome, heldBack: "dry run" };
    if (opts.onlyIfNoNewErrors && introduced.length > 0) return { ...outcome, heldBack: `it would introduce ${introduced.length} error${introduced.length === 1 ? "" : "s"} (onlyIfNoNewErrors)` };
    await deps.fs.commit(edited.map((f): FileWrite => ({ label: f.relative, path: f.path, data: encode(f), expect: f.expect })));
    written = true;
    return { ...outcome, written: true };
  } finally {
    // What the server was shown goes back to what the files hold (a created file is closed).
    if (!written) for (const f of edited) await server.sync(f.path, handled(f.path) ?? "plaintext").catch(() => undefined);
  }
}

/** Every file's new text, from the content the server has (checked against the file on disk). */
async function planEdit(deps: ApplyEditDeps, server: LanguageServer, edit: WorkspaceEdit): Promise<Map<string, Planned>> {
  const checked = await checkWorkspaceEdit(edit, (uri, o) => deps.fs.resolve(uri, o));
  const plan = new Map<string, Planned>();
  for (const change of checked.changes) {
    if (change.kind === "rename" || change.kind === "delete") {
      throw new ToolError("not_supported", `The language server's edit ${change.kind === "rename" ? "renames" : "deletes"} a file (${deps.fs.relative(change.kind === "rename" ? change.from : change.path)}); the bridge applies text edits and new files only, so nothing was changed`, {
        suggestion: "Make the file move or deletion with the file tools, or pick another code action.",
      });
    }
    if (change.kind === "create") {
      const exists = plan.has(change.path) || (await deps.fs.entryStat(change.path)) !== undefined;
      if (exists && change.ignoreIfExists) continue;
      if (exists && !change.overwrite) throw new ToolError("file_exists", `The language server's edit creates ${deps.fs.relative(change.path)}, which exists; nothing was changed`, { suggestion: "Move the file away first, or pick another code action." });
      const planned = plan.get(change.path) ?? (exists ? await readPlanned(deps, server, change.path) : undefined);
      plan.set(change.path, { path: change.path, relative: deps.fs.relative(change.path), before: planned?.before, after: "", bom: false, expect: planned?.expect ?? "absent" });
      continue;
    }
    const planned = plan.get(change.path) ?? (await readPlanned(deps, server, change.path));
    planned.after = applyTextEdits(planned.after, change.edits, planned.relative);
    plan.set(change.path, planned);
  }
  return plan;
}

async function readPlanned(deps: ApplyEditDeps, server: LanguageServer, path: WorkspacePath): Promise<Planned> {
  const relative = deps.fs.relative(path);
  const { bytes, stat } = await deps.fs.readBytes(path, { maxBytes: 8 * 1024 * 1024, forWrite: true });
  let raw: string;
  try {
    raw = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new ToolError("binary_file", `${relative} is not valid UTF-8; the language server's edit was not applied`, { suggestion: "Convert the file to UTF-8 first." });
  }
  const bom = raw.startsWith(BOM);
  const text = bom ? raw.slice(1) : raw;
  const seen = server.openText(path);
  // The edit's positions refer to what the server has: a file changed since is not edited blind.
  if (seen !== undefined && seen !== text) {
    throw new ToolError("file_changed", `${relative} changed since the language server computed the edit; nothing was changed`, { suggestion: "Call again: the server is given the current content first." });
  }
  return { path, relative, before: text, after: text, bom, expect: { identity: identityOf(stat), original: bytes } };
}

function encode(f: Pick<Planned, "after" | "bom">): Uint8Array {
  return new TextEncoder().encode(f.bom ? BOM + f.after : f.after);
}

/** Errors of `a` not in `b`, matched by file, code and message (positions move with the edit). */
function difference(a: readonly ErrorAt[], b: readonly ErrorAt[]): ErrorAt[] {
  const key = (e: ErrorAt) => `${e.file}\0${String(e.diagnostic.code ?? "")}\0${typeof e.diagnostic.message === "string" ? e.diagnostic.message : e.diagnostic.message.value}`;
  const left = new Map<string, number>();
  for (const e of b) left.set(key(e), (left.get(key(e)) ?? 0) + 1);
  return a.filter((e) => {
    const n = left.get(key(e)) ?? 0;
    if (n === 0) return true;
    left.set(key(e), n - 1);
    return false;
  });
}
