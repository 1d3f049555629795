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
  const hard = opts.catchUpDeadline ?? opts.deadline;
  const known = server.diagnostics.get(doc.uri);
  // Unchanged content whose diagnostics already came: they are current (once its last stage came).
  if (!changed && known !== undefined && (known.version === undefined || known.version >= doc.version))
    return lastStage(server, { uri: doc.uri, version: doc.version, items: known.items }, { deadline: hard, signal: opts.signal });
  const wanted = {
    afterSeq: changed ? before : -1,
    version: doc.version,
    // Closing clears a file's diagnostics with a publication of no version (clangd): not the answer.
    versioned: reopen,
    signal: opts.signal,
  };
  let published = await server.diagnostics.next(doc.uri, { ...wanted, deadline: opts.deadline });
  // A server that says it is still analysing (pyright's "files to analyze", gopls loading packages) is waited for, up to the catch-up deadline.
  while (published === undefined && server.progress.busyWith().length > 0 && Date.now() < hard && !opts.signal.aborted)
    published = await server.diagnostics.next(doc.uri, { ...wanted, deadline: Math.min(hard, Date.now() + 1000) });
  if (published === undefined) return { items: [], how: "none" };
  const staged = await lastStage(
    server,
    { uri: doc.uri, version: doc.version, items: published.items },
    { deadline: hard, signal: opts.signal },
  );
  if (staged.how !== "push" || !touched || opts.text !== undefined) return staged;
  return caughtUp(server, path, staged.items, { deadline: hard, signal: opts.signal });
}

/**
 * The document's diagnostics once a server that publishes them in stages (ServerSpec.
 * publishesInStages: what parsing found, then what checking found, for the same version) has
 * published its last: when it has been quiet for a while with no work-done progress running or
 * about to begin. Past the deadline, its latest publication is answered as unsettled.
 */
async function lastStage(
  server: PushSide,
  at: { uri: string; version: number; items: Diagnostic[] },
  opts: { deadline: number; signal: AbortSignal },
): Promise<FileDiagnostics> {
  const stages = server.spec.publishesInStages;
  if (stages === undefined) return { items: at.items, how: "push" };
  const latest = () => {
    const found = server.diagnostics.get(at.uri);
    return found !== undefined && (found.version === undefined || found.version >= at.version) ? found.items : at.items;
  };
  for (;;) {
    const settled = await server.progress.settled(opts.deadline, opts.signal);
    const quietAt = server.diagnostics.lastArrivalAt + stages.quietMs;
    if (settled && Date.now() >= quietAt) return { items: latest(), how: "push" };
    if (!settled || Date.now() >= opts.deadline || opts.signal.aborted)
      return {
        items: latest(),
        how: "unsettled",
        why: `${server.serverName} was still analysing (it publishes what it parsed before what it checked)`,
      };
    await server.diagnostics.arrival(Math.min(quietAt, opts.deadline), opts.signal);
  }
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
    const last = await lastStage(server, { uri: doc.uri, version: doc.version, items: next.items }, opts);
    if (last.how !== "push") return last;
    if (JSON.stringify(last.items) === JSON.stringify(previous)) return last;
    previous = last.items;
  }
}
