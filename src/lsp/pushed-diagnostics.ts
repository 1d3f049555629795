// The diagnostics a push-only server publishes for a document the bridge just synced (or re-sent
// because something it may depend on changed on disk): those of the synced version, waited for up
// to a deadline, and for a re-sent one only once the server has caught up with the change.
import type { Diagnostic } from "vscode-languageserver-protocol";
import { toFileUri } from "../lib/paths/file-uri.ts";
import type { WorkspacePath } from "../security/jail/workspace-path.ts";
import type { DiagnosticsStore } from "./diagnostics-store.ts";
import type { OpenDocuments, SyncResult } from "./open-documents.ts";
import type { ProgressTracker } from "./progress-tracker.ts";
import type { ServerSpec } from "./server-specs.ts";
import { WakeList } from "./wake-list.ts";

export interface FileDiagnostics {
  items: Diagnostic[];
  /**
   * pull: asked for this content; push: published for this version; none: the server said nothing
   * in time; unsettled: published, but the server had not caught up with a change on disk by the
   * deadline (`why`), so the items may describe the state before it.
   */
  how: "pull" | "push" | "none" | "unsettled";
  why?: string;
}

/** What of a language server the push side reads. */
export interface PushSide {
  diagnostics: DiagnosticsStore;
  progress: ProgressTracker;
  documents: OpenDocuments;
  spec: ServerSpec;
  serverName: string;
}

/** The diagnostics a push-only server publishes for the document as just synced (or touched). */
export async function pushedDiagnostics(
  server: PushSide,
  at: { path: WorkspacePath; doc: SyncResult["doc"]; changed: boolean; touched: boolean; reopen: boolean; before: number },
  opts: { deadline: number; signal: AbortSignal; text?: string; catchUpDeadline?: number },
): Promise<FileDiagnostics> {
  const { path, doc, changed, touched, reopen, before } = at;
  const known = server.diagnostics.get(doc.uri);
  // Unchanged content whose diagnostics already came: they are current.
  if (!changed && known !== undefined && (known.version === undefined || known.version >= doc.version))
    return { items: known.items, how: "push" };
  const wanted = {
    afterSeq: changed ? before : -1,
    version: doc.version,
    // Closing clears a file's diagnostics with a publication of no version (clangd): not the answer.
    versioned: reopen,
    signal: opts.signal,
  };
  let published = await server.diagnostics.next(doc.uri, { ...wanted, deadline: opts.deadline });
  // A server that says it is still analysing (pyright's "files to analyze", gopls loading packages) is waited for, up to the catch-up deadline.
  const hard = opts.catchUpDeadline ?? opts.deadline;
  while (published === undefined && server.progress.busyWith().length > 0 && Date.now() < hard && !opts.signal.aborted)
    published = await server.diagnostics.next(doc.uri, { ...wanted, deadline: Math.min(hard, Date.now() + 1000) });
  if (published === undefined) return { items: [], how: "none" };
  if (!touched || opts.text !== undefined) return { items: published.items, how: "push" };
  return caughtUp(server, path, published.items, { deadline: opts.catchUpDeadline ?? opts.deadline, signal: opts.signal });
}

/**
 * The diagnostics of a document re-sent because something it may depend on changed on disk, once
 * the server has caught up with that change: its work-done progress ended (gopls, clangd). One that
 * applies file events later than an edit of the document (pyright batches them, and a cold one
 * analyses for many seconds) may publish for the new version from the old state: the document is
 * re-sent after a pause until two publications agree. Past the deadline the answer says it may be stale.
 */
async function caughtUp(
  server: PushSide,
  path: WorkspacePath,
  first: Diagnostic[],
  opts: { deadline: number; signal: AbortSignal },
): Promise<FileDiagnostics> {
  const readiness = server.spec.readiness;
  if (!(await server.progress.idle(opts.deadline, opts.signal))) {
    const doing = server.progress.busyWith();
    return {
      items: first,
      how: "unsettled",
      why: `${server.serverName} was still busy${doing.length > 0 ? ` (${doing.join("; ")})` : ""}`,
    };
  }
  if (readiness.rule !== "stable") return { items: server.diagnostics.get(toFileUri(path))?.items ?? first, how: "push" };
  let previous = first;
  for (;;) {
    if (Date.now() + readiness.settleMs > opts.deadline || opts.signal.aborted)
      return { items: previous, how: "unsettled", why: `${server.serverName} gave different diagnostics each time it was asked` };
    await new WakeList().wait(Date.now() + readiness.settleMs, opts.signal);
    const before = server.diagnostics.now;
    const doc = await server.documents.touch(path, { reopen: false });
    if (doc === undefined) return { items: previous, how: "push" };
    const next = await server.diagnostics.next(doc.uri, {
      afterSeq: before,
      version: doc.version,
      deadline: opts.deadline,
      signal: opts.signal,
    });
    if (next === undefined)
      return { items: previous, how: "unsettled", why: `${server.serverName} published nothing for the re-sent file in time` };
    if (JSON.stringify(next.items) === JSON.stringify(previous)) return { items: next.items, how: "push" };
    previous = next.items;
  }
}
