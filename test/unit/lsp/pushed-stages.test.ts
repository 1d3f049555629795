// A server that publishes a document's diagnostics in stages (pyright: what parsing found, then
// what checking found, for the same version) is answered with its last stage, not its first: the
// first, taken as the answer, made a dry-run rename on click report a file's old error as
// introduced, and could hide one an edit introduced.
import { describe, expect, it } from "vitest";
import type { Diagnostic } from "vscode-languageserver-protocol";
import { DiagnosticsStore } from "../../../src/lsp/diagnostics-store.ts";
import type { SyncResult } from "../../../src/lsp/open-documents.ts";
import { ProgressTracker } from "../../../src/lsp/progress-tracker.ts";
import { type PushSide, pushedDiagnostics } from "../../../src/lsp/pushed-diagnostics.ts";
import type { ServerSpec } from "../../../src/lsp/server-specs.ts";
import type { WorkspacePath } from "../../../src/security/jail/workspace-path.ts";

const URI = "file:///w/core.py";
const ERROR: Diagnostic = {
  range: { start: { line: 3708, character: 47 }, end: { line: 3708, character: 55 } },
  message: "bool | None",
  severity: 1,
};

function side(staged: boolean): PushSide & { store: DiagnosticsStore; tracker: ProgressTracker } {
  const store = new DiagnosticsStore(() => {});
  const tracker = new ProgressTracker();
  const spec = { id: "pyright", readiness: { rule: "stable", settleMs: 1000 }, ...(staged ? { publishesInStages: { quietMs: 150 } } : {}) };
  return {
    diagnostics: store,
    progress: tracker,
    documents: {} as PushSide["documents"],
    spec: spec as ServerSpec,
    serverName: "pyright",
    store,
    tracker,
  };
}

function ask(server: PushSide, deadlineMs: number) {
  const doc = { uri: URI, version: 1 } as SyncResult["doc"];
  return pushedDiagnostics(
    server,
    { path: "/w/core.py" as WorkspacePath, doc, changed: true, touched: false, reopen: false, before: server.diagnostics.now },
    { deadline: Date.now() + deadlineMs, signal: AbortSignal.timeout(20_000) },
  );
}

/** The server's traffic as pyright sends it for a big file: the parsed stage, a token asked for, then the checked stage and its progress. */
function publishInStages(server: ReturnType<typeof side>, checkMs: number): void {
  queueMicrotask(() => {
    server.store.publish({ uri: URI, version: 1, diagnostics: [] });
    server.tracker.onCreate({ token: "analysis" });
  });
  setTimeout(() => {
    server.store.publish({ uri: URI, version: 1, diagnostics: [ERROR] });
    server.tracker.onProgress({ token: "analysis", value: { kind: "begin", title: "" } });
    server.tracker.onProgress({ token: "analysis", value: { kind: "end" } });
  }, checkMs);
}

describe("diagnostics published in stages", () => {
  it("answers the checked stage, though the check took longer than the quiet period", async () => {
    const server = side(true);
    publishInStages(server, 600);
    const found = await ask(server, 5_000);
    expect(found).toEqual({ items: [ERROR], how: "push" });
  });

  it("answers the first publication for a server that does not publish in stages", async () => {
    const server = side(false);
    publishInStages(server, 600);
    expect(await ask(server, 5_000)).toEqual({ items: [], how: "push" });
  });

  it("says unsettled, not clean, when the check has not come by the deadline", async () => {
    const server = side(true);
    publishInStages(server, 3_000);
    const found = await ask(server, 400);
    expect(found.how).toBe("unsettled");
    expect(found.why).toMatch(/pyright was still analysing/);
  });

  it("answers at once what a quiet server published for the version long ago", async () => {
    const server = side(true);
    server.store.publish({ uri: URI, version: 1, diagnostics: [ERROR] });
    server.store.lastArrivalAt -= 10_000;
    const doc = { uri: URI, version: 1 } as SyncResult["doc"];
    // A deadline already past: an answer that had to wait would be unsettled.
    const found = await pushedDiagnostics(
      server,
      { path: "/w/core.py" as WorkspacePath, doc, changed: false, touched: false, reopen: false, before: 0 },
      { deadline: Date.now(), signal: AbortSignal.timeout(20_000) },
    );
    expect(found).toEqual({ items: [ERROR], how: "push" });
  });
});
