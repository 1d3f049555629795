// The diagnostics an edit changed ([lsp]): when a running language server already has a file, its
// diagnostics are taken before the write and again after it, and the difference goes under the
// file's line of the edit report. Nothing is started for this (an edit must not wait for a server
// to boot), and a server that fails or is slow only costs the note, never the edit.
import type { Diagnostic } from "vscode-languageserver-protocol";
import type { WorkspacePath } from "../../security/workspace-path.ts";
import type { ToolContext } from "../context.ts";

/** Files of one edit whose diagnostics are compared; the rest are written without a note. */
const MAX_FILES = 5;
/** Diagnostics listed per side (new, fixed); the counts say the rest. */
const MAX_LISTED = 5;
const SEVERITY = ["", "error", "warning", "info", "hint"];

/** Runs `write`; returns the delta lines per covered file (none when no server has the file). */
export async function withDiagnosticsDelta(ctx: ToolContext, paths: readonly WorkspacePath[], write: () => Promise<void>): Promise<Map<WorkspacePath, string[]>> {
  const covered = paths.filter((p) => ctx.lsp.covers(p)).slice(0, MAX_FILES);
  const before = new Map<WorkspacePath, Diagnostic[]>();
  for (const path of covered) {
    const found = await current(ctx, path);
    if (found !== undefined) before.set(path, found.items);
  }
  await write();
  const notes = new Map<WorkspacePath, string[]>();
  for (const [path, old] of before) {
    const now = await current(ctx, path);
    if (now !== undefined) notes.set(path, describeDelta(old, now.items, now.server));
  }
  return notes;
}

async function current(ctx: ToolContext, path: WorkspacePath): Promise<{ items: Diagnostic[]; server: string } | undefined> {
  try {
    const found = await ctx.lsp.diagnosticsFor(path, { signal: ctx.signal });
    return found.current ? found : undefined;
  } catch {
    return undefined;
  }
}

/** Compared by severity, source, code and message: an edit moves lines, so positions would not match. */
function keyOf(d: Diagnostic): string {
  return `${d.severity ?? 1}\u0000${d.source ?? ""}\u0000${String(d.code ?? "")}\u0000${messageOf(d)}`;
}

function messageOf(d: Diagnostic): string {
  const message: unknown = d.message;
  return typeof message === "string" ? message : typeof message === "object" && message !== null && "value" in message ? String(message.value) : "";
}

export function describeDelta(before: readonly Diagnostic[], after: readonly Diagnostic[], server: string): string[] {
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
  if (added.length === 0 && fixed.length === 0) return [`Diagnostics (${server}): unchanged, ${after.length} in the file`];
  const lines = [`Diagnostics (${server}): ${added.length} new, ${fixed.length} fixed, ${after.length} in the file now`];
  for (const d of added.slice(0, MAX_LISTED)) lines.push(`  + ${describe(d, true)}`);
  for (const d of fixed.slice(0, MAX_LISTED)) lines.push(`  - ${describe(d, false)}`);
  return lines;
}

function describe(d: Diagnostic, withLine: boolean): string {
  const where = withLine ? `${d.range.start.line + 1}:${d.range.start.character + 1} ` : "";
  const code = d.code === undefined ? "" : ` (${String(d.code)})`;
  return `${where}${SEVERITY[d.severity ?? 1] ?? "error"}: ${messageOf(d).split("\n")[0]}${code}`;
}
