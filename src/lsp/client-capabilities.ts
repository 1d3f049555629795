// What the bridge tells a server it can do at initialize (LSP 3.17): pull and push diagnostics,
// hierarchical symbols, prepareRename, code action resolve, work-done progress, watched files and
// configuration, so servers enable the features the tools use and report their readiness.
import type { ClientCapabilities, InitializeParams, SymbolKind } from "vscode-languageserver-protocol";
import { toFileUri } from "../lib/paths/file-uri.ts";
import { basename } from "../lib/paths/posix-path.ts";
import { PACKAGE_VERSION } from "../version.ts";

// The standard token types and modifiers (LSP 3.17): a server names its own in its legend, and the
// bridge decodes by that legend, so these only say which the bridge understands.
const SEMANTIC_TOKEN_TYPES = [
  "namespace",
  "type",
  "class",
  "enum",
  "interface",
  "struct",
  "typeParameter",
  "parameter",
  "variable",
  "property",
  "enumMember",
  "event",
  "function",
  "method",
  "macro",
  "keyword",
  "modifier",
  "comment",
  "string",
  "number",
  "regexp",
  "operator",
  "decorator",
];
const SEMANTIC_TOKEN_MODIFIERS = [
  "declaration",
  "definition",
  "readonly",
  "static",
  "deprecated",
  "abstract",
  "async",
  "modification",
  "documentation",
  "defaultLibrary",
];

const SYMBOL_KINDS = Array.from({ length: 26 }, (_, i) => (i + 1) as SymbolKind);

const CLIENT_CAPABILITIES: ClientCapabilities = {
  general: { positionEncodings: ["utf-16"] },
  window: { workDoneProgress: true, showMessage: {} },
  workspace: {
    applyEdit: true,
    workspaceEdit: { documentChanges: true, resourceOperations: ["create", "rename", "delete"], failureHandling: "abort" },
    configuration: true,
    workspaceFolders: true,
    didChangeConfiguration: { dynamicRegistration: true },
    didChangeWatchedFiles: { dynamicRegistration: true, relativePatternSupport: true },
    symbol: { symbolKind: { valueSet: SYMBOL_KINDS } },
    diagnostics: { refreshSupport: true },
    executeCommand: {},
  },
  textDocument: {
    synchronization: { didSave: true, dynamicRegistration: true },
    hover: { contentFormat: ["markdown", "plaintext"] },
    signatureHelp: {
      signatureInformation: {
        documentationFormat: ["markdown", "plaintext"],
        parameterInformation: { labelOffsetSupport: true },
        activeParameterSupport: true,
      },
    },
    declaration: { linkSupport: true },
    definition: { linkSupport: true },
    typeDefinition: { linkSupport: true },
    implementation: { linkSupport: true },
    references: {},
    documentSymbol: { hierarchicalDocumentSymbolSupport: true, symbolKind: { valueSet: SYMBOL_KINDS } },
    codeAction: {
      dataSupport: true,
      resolveSupport: { properties: ["edit"] },
      isPreferredSupport: true,
      codeActionLiteralSupport: {
        codeActionKind: {
          valueSet: [
            "",
            "quickfix",
            "refactor",
            "refactor.extract",
            "refactor.inline",
            "refactor.rewrite",
            "source",
            "source.organizeImports",
            "source.fixAll",
          ],
        },
      },
    },
    formatting: {},
    rangeFormatting: {},
    rename: { prepareSupport: true },
    publishDiagnostics: { relatedInformation: true, versionSupport: true, codeDescriptionSupport: true },
    diagnostic: { dynamicRegistration: true, relatedDocumentSupport: false },
    callHierarchy: {},
    typeHierarchy: {},
    foldingRange: { foldingRangeKind: { valueSet: ["comment", "imports", "region"] } },
    selectionRange: {},
    codeLens: {},
    documentLink: { tooltipSupport: true },
    inlayHint: { resolveSupport: { properties: ["label.tooltip", "label.location", "tooltip"] } },
    semanticTokens: {
      requests: { full: true, range: true },
      tokenTypes: [...SEMANTIC_TOKEN_TYPES],
      tokenModifiers: [...SEMANTIC_TOKEN_MODIFIERS],
      formats: ["relative"],
      multilineTokenSupport: false,
      overlappingTokenSupport: false,
    },
  },
};

export function initializeParams(opts: {
  root: string;
  processId: number;
  initializationOptions?: unknown;
  pushDiagnosticsOnly?: boolean;
}): InitializeParams {
  const uri = toFileUri(opts.root);
  const { diagnostic: _pull, ...withoutPull } = CLIENT_CAPABILITIES.textDocument ?? {};
  const capabilities = opts.pushDiagnosticsOnly ? { ...CLIENT_CAPABILITIES, textDocument: withoutPull } : CLIENT_CAPABILITIES;
  return {
    processId: opts.processId,
    clientInfo: { name: "claude-ide-bridge", version: PACKAGE_VERSION },
    rootUri: uri,
    rootPath: opts.root,
    workspaceFolders: [{ uri, name: basename(opts.root) || "/" }],
    capabilities,
    initializationOptions: opts.initializationOptions ?? {},
    trace: "off",
  };
}
