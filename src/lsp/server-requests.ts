// Answers to the requests a server sends the bridge (LSP "client" side), so servers that wait for
// them (configuration before analysing, a progress token before reporting) go on. An edit a server
// asks to apply (workspace/applyEdit, sent while a command of a code action runs) is never applied
// here: while the bridge runs such a command it is captured and then goes through the atomic edit
// path (src/lsp/apply-edit.ts) like any other edit; at any other time it is refused and recorded.
import type {
  ApplyWorkspaceEditParams,
  ConfigurationParams,
  Registration,
  RegistrationParams,
  UnregistrationParams,
} from "vscode-languageserver-protocol";
import type { LspConnection } from "../ports/lsp.ts";
import { toFileUri } from "../lib/paths/file-uri.ts";
import { basename } from "../lib/paths/posix-path.ts";

interface ClientState {
  readonly root: string;
  /** The settings as they are now: the project's style may change while the server runs. */
  settings(): Readonly<Record<string, unknown>>;
  /** Methods the server registered dynamically (client/registerCapability), by registration id. */
  readonly registrations: Map<string, Registration>;
  /** Edits the server asked for outside a command the bridge runs, refused. */
  readonly refusedEdits: unknown[];
  /** Takes the edit of a command the bridge is running (true), or leaves it to be refused (false). */
  captureEdit(params: ApplyWorkspaceEditParams): boolean;
  onDiagnosticRefresh(): void;
  /** The server asked for a work-done progress token (window/workDoneProgress/create). */
  onProgressCreate(params: unknown): void;
  /** typescript-language-server asks its client to start a rename of what a refactor just named (`_typescript.rename`). */
  onRenameRequest(params: unknown): void;
}

export function answerServerRequests(connection: LspConnection, state: ClientState): void {
  connection.onRequest("workspace/configuration", (params) =>
    ((params as ConfigurationParams).items ?? []).map((item) => settingFor(state.settings(), item.section)),
  );
  connection.onRequest("workspace/workspaceFolders", () => [{ uri: toFileUri(state.root), name: basename(state.root) || "/" }]);
  connection.onRequest("window/workDoneProgress/create", (params) => {
    state.onProgressCreate(params);
    return null;
  });
  connection.onRequest("client/registerCapability", (params) => {
    for (const registration of (params as RegistrationParams).registrations ?? []) state.registrations.set(registration.id, registration);
    return null;
  });
  connection.onRequest("client/unregisterCapability", (params) => {
    // The spec's field name is misspelt ("unregisterations") since LSP 3.0, and kept so.
    for (const gone of (params as UnregistrationParams).unregisterations ?? []) state.registrations.delete(gone.id);
    return null;
  });
  connection.onRequest("workspace/applyEdit", (params) => {
    // Captured: the bridge applies it itself, through the jail, once the command has returned.
    if (state.captureEdit(params as ApplyWorkspaceEditParams)) return { applied: true };
    state.refusedEdits.push(params);
    return { applied: false, failureReason: "claude-ide-bridge applies edits only through its own tools" };
  });
  // Sent after an extract refactor's edit, for the editor to put the cursor on the generated name
  // and start a rename; an unanswered request fails the refactor's command. Recorded, so the tool
  // can name it (and rename it when asked to).
  connection.onRequest("_typescript.rename", (params) => {
    state.onRenameRequest(params);
    return null;
  });
  connection.onRequest("window/showMessageRequest", () => null);
  connection.onRequest("window/showDocument", () => ({ success: false }));
  connection.onRequest("workspace/diagnostic/refresh", () => {
    state.onDiagnosticRefresh();
    return null;
  });
  for (const refresh of [
    "workspace/semanticTokens/refresh",
    "workspace/inlayHint/refresh",
    "workspace/codeLens/refresh",
    "workspace/inlineValue/refresh",
    "workspace/foldingRange/refresh",
  ]) {
    connection.onRequest(refresh, () => null);
  }
}

/** A dotted section ("python.analysis") from settings kept whole or by section; null when unknown. */
export function settingFor(settings: Readonly<Record<string, unknown>>, section: string | undefined): unknown {
  if (section === undefined) return settings;
  if (section in settings) return settings[section];
  let value: unknown = settings;
  for (const part of section.split(".")) {
    if (typeof value !== "object" || value === null || !(part in value)) return null;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}
