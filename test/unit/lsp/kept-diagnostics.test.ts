// A pulled answer is reused only while what the server sees is the same (pulled-diagnostics.ts, the
// documents' `state`): every path that changes it without a content sync must advance the state,
// or a kept answer from before is given as current (as one gave "0 introduced" for a deletion).
// Driven through a scripted pulling server, counting the pulls it is asked.
import { describe, expect, it } from "vitest";
import { LanguageServer } from "../../../src/lsp/language-server.ts";
import type { ServerSpec } from "../../../src/lsp/server-specs.ts";
import type { LanguageServerLauncher, LspConnection } from "../../../src/ports/lsp.ts";
import type { WorkspacePath } from "../../../src/security/jail/workspace-path.ts";

const SPEC: ServerSpec = { id: "puller", languages: ["x"], command: [], args: [], rootMarkers: [], readiness: { rule: "progress" } };
const FILE = "/w/a.x" as WorkspacePath;

async function pullingServer(opts: { watching: boolean }) {
  let pulls = 0;
  const connection: LspConnection = {
    pid: undefined,
    request: async (method) => {
      if (method === "initialize")
        return { capabilities: { diagnosticProvider: { interFileDependencies: true, workspaceDiagnostics: false } } };
      if (method === "textDocument/diagnostic") {
        pulls += 1;
        return { kind: "full", items: [] };
      }
      return null;
    },
    notify: async () => {},
    onNotification: () => {},
    onRequest: () => {},
    stderrTail: () => "",
    kill: () => {},
    close: async () => {},
    exited: new Promise(() => {}),
  };
  const launcher: LanguageServerLauncher = { start: () => connection, bundled: async () => undefined };
  const server = await LanguageServer.start(
    launcher,
    {
      spec: SPEC,
      root: "/w",
      command: "puller",
      args: [],
      env: {},
      initializationOptions: undefined,
      settings: { x: { a: 1 } },
      processId: 1,
    },
    { readText: async () => "content", onDiagnosticsChanged: () => {}, watching: () => opts.watching },
  );
  const check = () => server.diagnosticsFor(FILE, "x", { deadline: Date.now() + 10_000, signal: new AbortController().signal });
  return { server, check, pulls: () => pulls };
}

describe("kept pulled diagnostics", () => {
  it("are reused at the same state, and not past a change on disk", async () => {
    const { server, check, pulls } = await pullingServer({ watching: true });
    await check();
    await check();
    expect(pulls()).toBe(1);
    server.filesChanged();
    await check();
    expect(pulls()).toBe(2);
  });

  it("are not reused after the server's settings changed", async () => {
    const { server, check, pulls } = await pullingServer({ watching: true });
    await check();
    await server.updateSettings({ x: { a: 2 } });
    await check();
    expect(pulls()).toBe(2);
    // The same settings again change nothing, so the kept answer stands.
    await server.updateSettings({ x: { a: 2 } });
    await check();
    expect(pulls()).toBe(2);
  });

  it("are never kept while the watcher does not see every change", async () => {
    const { check, pulls } = await pullingServer({ watching: false });
    await check();
    await check();
    expect(pulls()).toBe(2);
  });
});
