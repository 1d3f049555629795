// The diagnostics a created, deleted or moved file changed. A delete or
// a move is what breaks imports elsewhere, so the files the running language servers have (open or
// diagnosed, of servers that can be asked again: LspService.recheckable) are checked before and
// after, with the servers told of the change at once (LspService.filesChanged); a created or moved
// file is checked itself when a running server takes it. Nothing is started, each side is bounded
// by PHASE_BUDGET_MS, and a server that fails or is slow only costs the note, never the change.
import * as v from "valibot";
import type { Diagnostic } from "vscode-languageserver-protocol";
import { isInside } from "../../lib/paths/posix-path.ts";
import type { WorkspacePath } from "../../security/jail/workspace-path.ts";
import { displayName } from "../../lib/text/display-name.ts";
import type { ToolContext } from "../../capabilities/context.ts";
import { compareDiagnostics, currentDiagnostics, renderDelta } from "../../services/diagnostics/diagnostics-delta.ts";

/** Other files re-checked; the servers' open files are few (64 at most each), the bound is for the time. */
const MAX_OTHER_FILES = 20;
/** Each side (before the change, after it) gets at most this long. */
const PHASE_BUDGET_MS = 3000;

/** The field createFile, deleteFile and renameFile answer it in. */
export const DiagnosticsField = v.optional(
  v.pipe(
    v.array(v.string()),
    v.description("What the change did to the errors of files a running language server has: new (+) and fixed (-) per file."),
  ),
);

interface EntryChange {
  /** What goes away: a deleted entry, or a move's source. */
  removed?: WorkspacePath;
  /** What appears: a created file, or a move's target. */
  added?: WorkspacePath;
  /** `added` replaced a file that was there. */
  replaced?: boolean;
}

interface Tracked {
  /** Where its diagnostics are taken before (undefined: it did not exist, so none). */
  before: string | undefined;
  after: string;
  /** The changed entry itself (always reported), or another file (reported only when it changed). */
  own: boolean;
  items?: Diagnostic[];
}

/** Runs `write`; returns its result and what it did to the diagnostics, as lines (none when no server is running). */
export async function withEntryDiagnostics<T>(
  ctx: ToolContext,
  edit: { change: EntryChange; write: () => Promise<T> },
): Promise<{ result: T; diagnostics: string[] }> {
  const { change, write } = edit;
  if (!ctx.lsp.status().servers.some((s) => s.state === "running")) return { result: await write(), diagnostics: [] };
  const tracked = await plan(ctx, change);
  const before = phaseSignal(ctx);
  for (const t of tracked) {
    if (t.before === undefined) t.items = [];
    else t.items = (await currentDiagnostics(ctx, t.before, { signal: before }))?.items;
  }
  const result = await write();
  await ctx.lsp.filesChanged(await eventsOf(ctx, change, tracked)).catch(() => undefined);
  const after = phaseSignal(ctx);
  const lines: string[] = [];
  let unchanged = 0;
  let unknown = 0;
  let server = "";
  for (const t of tracked) {
    if (t.items === undefined) continue;
    const now = await currentDiagnostics(ctx, t.after, { signal: after });
    if (now === undefined) {
      if (!t.own) unknown += 1;
      continue;
    }
    server = now.server;
    const delta = compareDiagnostics(t.items, now.items);
    if (!t.own && delta.added.length === 0 && delta.fixed.length === 0) unchanged += 1;
    else lines.push(...renderDelta(`${displayName(now.relative)} (${now.server})`, delta));
  }
  if (unchanged > 0) lines.push(`${unchanged} other file${unchanged === 1 ? "" : "s"} the language server has: unchanged (${server})`);
  if (unknown > 0) lines.push(`${unknown} other file${unknown === 1 ? "" : "s"} not re-checked in time`);
  return { result, diagnostics: lines };
}

/**
 * createFile's default: the file is written and the running servers are told of it at once, and the
 * answer comes without asking them for diagnostics: a server may first have to load the project the
 * file joins (seconds for a large one). The note says they were not checked and how to get them;
 * nothing is said of a file no language server's language claims.
 */
export async function withPendingDiagnostics<T>(
  ctx: ToolContext,
  edit: { created: WorkspacePath; replaced: boolean; write: () => Promise<T> },
): Promise<{ result: T; diagnostics: string[] }> {
  const { created, replaced, write } = edit;
  const result = await write();
  if (!ctx.lsp.status().servers.some((s) => s.state === "running")) return { result, diagnostics: [] };
  await ctx.lsp.filesChanged([{ path: created, type: replaced ? 2 : 1 }]).catch(() => undefined);
  const relative = ctx.fs.relative(created);
  if (ctx.lsp.languageOf(relative) === undefined) return { result, diagnostics: [] };
  const name = displayName(relative);
  return {
    result,
    diagnostics: [
      `pending (not waited for): getDiagnostics with file "${name}" checks it, without file the files that use it; or pass waitForDiagnostics`,
    ],
  };
}

/** The entry itself first, then the other files the servers can re-check; a move's files keep their names under the new path. */
async function plan(ctx: ToolContext, change: EntryChange): Promise<Tracked[]> {
  const { removed, added } = change;
  const known = await ctx.lsp.recheckable().catch(() => []);
  const tracked: Tracked[] = [];
  if (added !== undefined) tracked.push({ before: removed ?? (change.replaced ? added : undefined), after: added, own: true });
  for (const path of known) {
    if (path === removed || path === added || tracked.length > MAX_OTHER_FILES) continue;
    // Inside a deleted directory: gone. Inside a moved one: the same file under its new name.
    if (removed !== undefined && isInside(path, removed)) {
      if (added !== undefined) tracked.push({ before: path, after: `${added}${path.slice(removed.length)}`, own: false });
    } else {
      tracked.push({ before: path, after: path, own: false });
    }
  }
  return tracked;
}

/** The change as the servers' file events; the files a server knows inside a moved directory are named at their new place too. */
async function eventsOf(
  ctx: ToolContext,
  change: EntryChange,
  tracked: readonly Tracked[],
): Promise<{ path: WorkspacePath; type: 1 | 2 | 3 }[]> {
  const events: { path: WorkspacePath; type: 1 | 2 | 3 }[] = [];
  if (change.removed !== undefined) events.push({ path: change.removed, type: 3 });
  if (change.added !== undefined) events.push({ path: change.added, type: change.replaced ? 2 : 1 });
  for (const t of tracked) {
    if (t.own || t.before === t.after) continue;
    const moved = await ctx.fs.resolve(t.after).catch(() => undefined);
    if (moved !== undefined) events.push({ path: moved, type: 1 });
  }
  return events;
}

function phaseSignal(ctx: ToolContext): AbortSignal {
  return AbortSignal.any([ctx.signal, AbortSignal.timeout(PHASE_BUDGET_MS)]);
}
