// The diagnostics an edit changed: when a running language server already has a file, its
// diagnostics are taken before the write and again after it, once every written file has been
// told to the servers, and the difference goes under the file's line of the edit report. Nothing
// is started for this (an edit must not wait for a server to boot), and a server that fails or is
// slow only costs the note, never the edit; the note then says the file was not compared.
import type { Diagnostic } from "vscode-languageserver-protocol";
import type { WorkspacePath } from "../../security/jail/workspace-path.ts";
import type { ToolContext } from "../../capabilities/context.ts";
import { stopByOf } from "./call-budget.ts";

/** Files of one edit whose diagnostics are compared; the rest are written without a note. */
const MAX_FILES = 5;
/** Files of one edit announced to the servers at once; the watcher tells them of the rest. */
const MAX_ANNOUNCED = 200;
/** Diagnostics listed per side (new, fixed); the counts say the rest. */
const MAX_LISTED = 5;
const SEVERITY = ["", "error", "warning", "info", "hint"];

export interface FileDelta {
  /** What goes under the file's line of the report. */
  lines: string[];
  /** Errors (severity 1) the write added: a formatter says so loudly. */
  newErrors: number;
  /** "compared": by `server`; "late": it said nothing in time; "bound": past the files compared. */
  state: "compared" | "late" | "bound";
  server?: string;
  /** "late" because the call's time limit came first. */
  cut?: boolean;
  /** The errors (severity 1) the write added and fixed. */
  addedErrors: Diagnostic[];
  fixedErrors: Diagnostic[];
}

/** Runs `write`; returns the delta lines per covered file (none when no server has the file). */
export async function withDiagnosticsDelta(
  ctx: ToolContext,
  edit: { paths: readonly WorkspacePath[]; write: () => Promise<void> },
): Promise<Map<WorkspacePath, string[]>> {
  const deltas = await diagnosticsDeltas(ctx, edit);
  return new Map([...deltas].map(([path, delta]) => [path, delta.lines]));
}

/** withDiagnosticsDelta with the count of new errors per file. */
export async function diagnosticsDeltas(
  ctx: ToolContext,
  edit: { paths: readonly WorkspacePath[]; write: () => Promise<void> },
): Promise<Map<WorkspacePath, FileDelta>> {
  const { paths, write } = edit;
  // Each server's answer ends by the call's limit (less the answer's margin): past it, a file is not compared, and says why.
  const stopBy = stopByOf(ctx);
  const signal = stopBy === undefined ? ctx.signal : AbortSignal.any([ctx.signal, AbortSignal.timeout(Math.max(stopBy - Date.now(), 1))]);
  const inTime = (when: string) =>
    signal.aborted && !ctx.signal.aborted
      ? `the call's time limit came before the language server's answer ${when}: raise --timeout for projects this large`
      : `the language server said nothing in time ${when}`;
  const known = paths.filter((p) => ctx.lsp.covers(p));
  const covered = known.slice(0, MAX_FILES);
  const before = new Map<WorkspacePath, Diagnostic[]>();
  const notes = new Map<WorkspacePath, FileDelta>();
  const unknown = (path: WorkspacePath, why: string, state: "late" | "bound" = "late") =>
    notes.set(path, {
      lines: [`Diagnostics: not compared (${why})`],
      newErrors: 0,
      state,
      ...(state === "late" && signal.aborted && !ctx.signal.aborted ? { cut: true } : {}),
      addedErrors: [],
      fixedErrors: [],
    });
  for (const path of covered) {
    const found = signal.aborted ? undefined : await currentDiagnostics(ctx, path, { signal });
    if (found !== undefined) before.set(path, found.items);
    else unknown(path, inTime("before the write"));
  }
  const existed = new Map<WorkspacePath, boolean>();
  for (const path of paths.slice(0, MAX_ANNOUNCED))
    existed.set(
      path,
      await ctx.fs.stat(path).then(
        () => true,
        () => false,
      ),
    );
  await write();
  // Every written file is told to the servers before one is checked: a file's errors may depend on
  // another of the same edit (a transaction fixing an import in one file and its use in another).
  await ctx.lsp.filesChanged([...existed].map(([path, was]) => ({ path, type: was ? (2 as const) : (1 as const) }))).catch(() => undefined);
  for (const [path, old] of before) {
    const now = signal.aborted ? undefined : await currentDiagnostics(ctx, path, { signal });
    if (now === undefined) {
      unknown(path, inTime("after the write"));
      continue;
    }
    const delta = compareDiagnostics(old, now.items);
    const addedErrors = delta.added.filter(isError);
    notes.set(path, {
      lines: renderDelta(`Diagnostics (${now.server})`, delta),
      newErrors: addedErrors.length,
      state: "compared",
      server: now.server,
      addedErrors,
      fixedErrors: delta.fixed.filter(isError),
    });
  }
  for (const path of known.slice(MAX_FILES))
    unknown(path, `only the first ${MAX_FILES} files of an edit are compared; getDiagnostics checks this one`, "bound");
  return notes;
}

/**
 * The file's diagnostics for its content now from a server that is running (none is started), or
 * undefined when none could say in time.
 */
export async function currentDiagnostics(
  ctx: ToolContext,
  file: string,
  opts: { signal: AbortSignal },
): Promise<{ items: Diagnostic[]; server: string; relative: string } | undefined> {
  try {
    const found = await ctx.lsp.diagnosticsFor(file, { signal: opts.signal, start: false });
    return found.current ? found : undefined;
  } catch {
    return undefined;
  }
}

function isError(d: Diagnostic): boolean {
  return (d.severity ?? 1) === 1;
}

/** Compared by severity, source, code and message: an edit moves lines, so positions would not match. */
function keyOf(d: Diagnostic): string {
  return `${d.severity ?? 1}\u0000${d.source ?? ""}\u0000${String(d.code ?? "")}\u0000${messageOf(d)}`;
}

function messageOf(d: Diagnostic): string {
  const message: unknown = d.message;
  return typeof message === "string"
    ? message
    : typeof message === "object" && message !== null && "value" in message
      ? String(message.value)
      : "";
}

interface DiagnosticsComparison {
  added: Diagnostic[];
  fixed: Diagnostic[];
  /** How many the file has now. */
  now: number;
}

export function compareDiagnostics(before: readonly Diagnostic[], after: readonly Diagnostic[]): DiagnosticsComparison {
  const remaining = new Map<string, number>();
  for (const d of before) remaining.set(keyOf(d), (remaining.get(keyOf(d)) ?? 0) + 1);
  const added: Diagnostic[] = [];
  for (const d of after) {
    const left = remaining.get(keyOf(d)) ?? 0;
    if (left > 0) remaining.set(keyOf(d), left - 1);
    else added.push(d);
  }
  // What is left unmatched of `before` is what the edit fixed.
  const fixed: Diagnostic[] = [];
  for (const d of before) {
    const left = remaining.get(keyOf(d)) ?? 0;
    if (left > 0) {
      fixed.push(d);
      remaining.set(keyOf(d), left - 1);
    }
  }
  return { added, fixed, now: after.length };
}

/** `heading` is what the lines are about: "Diagnostics (typescript-go 7.0.2)", or a file's name. */
export function renderDelta(heading: string, delta: DiagnosticsComparison): string[] {
  if (delta.added.length === 0 && delta.fixed.length === 0) return [`${heading}: unchanged, ${delta.now} in the file`];
  const lines = [`${heading}: ${delta.added.length} new, ${delta.fixed.length} fixed, ${delta.now} in the file now`];
  for (const d of delta.added.slice(0, MAX_LISTED)) lines.push(`  + ${describe(d, true)}`);
  for (const d of delta.fixed.slice(0, MAX_LISTED)) lines.push(`  - ${describe(d, false)}`);
  return lines;
}

function describe(d: Diagnostic, withLine: boolean): string {
  const where = withLine ? `${d.range.start.line + 1}:${d.range.start.character + 1} ` : "";
  const code = d.code === undefined ? "" : ` (${String(d.code)})`;
  return `${where}${SEVERITY[d.severity ?? 1] ?? "error"}: ${messageOf(d).split("\n")[0]}${code}`;
}
