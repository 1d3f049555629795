// Whether a server can answer a request: from the capabilities it announced at initialize, or a
// registration it made later (client/registerCapability: pull diagnostics, for instance).
import type { Registration, ServerCapabilities } from "vscode-languageserver-protocol";

const PROVIDER: Readonly<Record<string, keyof ServerCapabilities>> = {
  "textDocument/definition": "definitionProvider",
  "textDocument/declaration": "declarationProvider",
  "textDocument/typeDefinition": "typeDefinitionProvider",
  "textDocument/implementation": "implementationProvider",
  "textDocument/references": "referencesProvider",
  "textDocument/hover": "hoverProvider",
  "textDocument/signatureHelp": "signatureHelpProvider",
  "textDocument/documentSymbol": "documentSymbolProvider",
  "workspace/symbol": "workspaceSymbolProvider",
  "textDocument/prepareCallHierarchy": "callHierarchyProvider",
  "textDocument/prepareTypeHierarchy": "typeHierarchyProvider",
  "textDocument/rename": "renameProvider",
  "textDocument/codeAction": "codeActionProvider",
  "textDocument/formatting": "documentFormattingProvider",
  "textDocument/rangeFormatting": "documentRangeFormattingProvider",
  "textDocument/diagnostic": "diagnosticProvider",
  "textDocument/foldingRange": "foldingRangeProvider",
  "textDocument/selectionRange": "selectionRangeProvider",
  "textDocument/codeLens": "codeLensProvider",
  "textDocument/documentLink": "documentLinkProvider",
  "textDocument/inlayHint": "inlayHintProvider",
  "textDocument/semanticTokens/full": "semanticTokensProvider",
  "textDocument/semanticTokens/range": "semanticTokensProvider",
};

export function supportsMethod(
  server: { capabilities: ServerCapabilities; registrations: Iterable<Registration> },
  method: string,
): boolean {
  const { capabilities, registrations } = server;
  for (const registration of registrations) if (registration.method === method) return true;
  if (method === "textDocument/prepareRename") {
    const rename = capabilities.renameProvider;
    return typeof rename === "object" && rename !== null && rename.prepareProvider === true;
  }
  if (method === "workspace/diagnostic") {
    const pull = capabilities.diagnosticProvider;
    return typeof pull === "object" && pull !== null && pull.workspaceDiagnostics === true;
  }
  if (method === "textDocument/semanticTokens/full" || method === "textDocument/semanticTokens/range") {
    const tokens = capabilities.semanticTokensProvider;
    if (tokens === undefined || tokens === null) return false;
    const way = method.endsWith("/full") ? tokens.full : tokens.range;
    return way !== undefined && way !== false;
  }
  const key = PROVIDER[method];
  if (key === undefined) return true;
  const provider = capabilities[key];
  return provider !== undefined && provider !== null && provider !== false;
}
