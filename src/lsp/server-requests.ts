// Answers to the requests a server sends the bridge (LSP "client" side), so servers that wait for
// them (configuration before analysing, a progress token before reporting) go on. An edit a server
// asks to apply (workspace/applyEdit, sent while a command of a code action runs) is refused for
// now and recorded: edits are applied only through the workspace's atomic edit machinery (phase 2).
import type { ConfigurationParams, Registration, RegistrationParams, UnregistrationParams } from "vscode-languageserver-protocol";
import type { LspConnection } from "../runtime.ts";
import { toFileUri } from "../security/file-uri.ts";
import { basename } from "../security/posix-path.ts";

export interface ClientState {
  readonly root: string;
  readonly settings: Readonly<Record<string, unknown>>;
  /** Methods the server registered dynamically (client/registerCapability), by registration id. */
  readonly registrations: Map<string, Registration>;
  /** Edits the server asked for and the bridge refused (phase 2 applies them). */
  readonly refusedEdits: unknown[];
  onDiagnosticRefresh(): void;
}

export function answerServerRequests(connection: LspConnection, state: ClientState): void {
  connection.onRequest("workspace/configuration", (params) => ((params as ConfigurationParams).items ?? []).map((item) => settingFor(state.settings, item.section)));
  connection.onRequest("workspace/workspaceFolders", () => [{ uri: toFileUri(state.root), name: basename(state.root) || "/" }]);
  connection.onRequest("window/workDoneProgress/create", () => null);
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
    state.refusedEdits.push(params);
    return { applied: false, failureReason: "claude-ide-bridge applies edits only through its own tools" };
  });
  connection.onRequest("window/showMessageRequest", () => null);
  connection.onRequest("window/showDocument", () => ({ success: false }));
  connection.onRequest("workspace/diagnostic/refresh", () => {
    state.onDiagnosticRefresh();
    return null;
  });
  for (const refresh of ["workspace/semanticTokens/refresh", "workspace/inlayHint/refresh", "workspace/codeLens/refresh", "workspace/inlineValue/refresh", "workspace/foldingRange/refresh"]) {
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
