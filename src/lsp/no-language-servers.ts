// ctx.lsp where the bridge runs no language servers (a tool environment built without them):
// every request is answered with a clear error rather than a missing capability.
import { ToolError } from "../errors.ts";
import type { LspService } from "./lsp-service.ts";

export function noLanguageServers(): LspService {
  const refuse = async (): Promise<never> => {
    throw new ToolError("no_language_server", "This bridge runs no language servers", {
      suggestion: "Use searchWorkspace or readFile instead.",
    });
  };
  return {
    document: refuse,
    handles: async () => false,
    languageOf: () => undefined,
    analyse: async () => [],
    handlesWorkspace: async () => false,
    workspaceDiagnostics: refuse,
    applyEdit: refuse,
    workspaceServers: refuse,
    wholeProject: refuse,
    diagnosticsFor: refuse,
    covers: () => false,
    recheckable: async () => [],
    filesChanged: async () => {},
    workspaceErrors: refuse,
    onChange: () => () => {},
    pathOf: async () => undefined,
    whileUnchanged: (_key, compute) => compute(),
    watchProof: async () => undefined,
    available: async () => [],
    status: () => ({ servers: [], limits: { maxServers: 0, maxMemoryBytes: 0 }, watchedDirectories: 0, watcherTruncated: false }),
    stop: async () => {},
  };
}
