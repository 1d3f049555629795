// A push-only language server in process, for the tests of what the bridge keeps of a server's
// answers: it answers initialize with full document sync and, for each document it is sent, publishes
// the diagnostics `diagnose` gives (on the next microtask, as a server answers after the notification),
// counting the documents it was sent.
import type { Diagnostic } from "vscode-languageserver-protocol";
import type { LanguageServerLauncher, LspConnection } from "../../src/ports/lsp.ts";

export interface SentDocument {
  uri: string;
  version: number;
  text?: string;
}

export interface ScriptedPushServer {
  launcher: LanguageServerLauncher;
  /** Documents sent so far (didOpen, and didChange when `changes` is on). */
  sent(): number;
}

export function scriptedPushServer(diagnose: (doc: SentDocument) => Diagnostic[], opts: { changes?: boolean } = {}): ScriptedPushServer {
  let sent = 0;
  let publish: (params: unknown) => void = () => {};
  const connection: LspConnection = {
    pid: undefined,
    request: async (method) => (method === "initialize" ? { capabilities: { textDocumentSync: 1 } } : null),
    notify: async (method, params) => {
      const doc = (params as { textDocument?: SentDocument }).textDocument;
      const counted = method === "textDocument/didOpen" || (opts.changes === true && method === "textDocument/didChange");
      if (!counted || doc === undefined) return;
      sent += 1;
      const diagnostics = diagnose(doc);
      queueMicrotask(() => publish({ uri: doc.uri, version: doc.version, diagnostics }));
    },
    onNotification: (method, handler) => {
      if (method === "textDocument/publishDiagnostics") publish = handler as (params: unknown) => void;
    },
    onRequest: () => {},
    stderrTail: () => "",
    kill: () => {},
    close: async () => {},
    exited: new Promise(() => {}),
  };
  return { launcher: { start: () => connection, bundled: async () => undefined }, sent: () => sent };
}
