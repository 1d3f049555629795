// The `--slim` set: the original bridge's 61 IDE-exclusive tools (LSP, debugger, editor state,
// decorations) that Claude Code cannot replicate with its own built-in tools.
export const SLIM_TOOL_NAMES: ReadonlySet<string> = new Set([
  // LSP
  "applyCodeAction", "batchFindImplementations", "batchGetHover", "batchGoToDefinition", "explainSymbol",
  "findImplementations", "findReferences", "foldingRanges", "getCallHierarchy", "getCodeActions", "getCodeLens",
  "getDiagnostics", "getDocumentLinks", "getDocumentSymbols", "getHover", "getHoverAtCursor",
  "getImportedSignatures", "getImportTree", "getInlayHints", "getSemanticTokens", "getTypeHierarchy",
  "goToDeclaration", "goToDefinition", "goToTypeDefinition", "prepareRename", "previewCodeAction",
  "renameSymbol", "searchWorkspaceSymbols", "selectionRanges", "signatureHelp",
  // Editor
  "clearEditorDecorations", "closeTab", "getCurrentSelection", "getLatestSelection", "getOpenEditors",
  "openFile", "saveDocument", "setEditorDecorations",
  // Debug
  "evaluateInDebugger", "getDebugState", "setDebugBreakpoints", "startDebugging", "stopDebugging",
  // Other
  "bridgeDoctor", "captureScreenshot", "checkDocumentDirty", "contextBundle", "executeVSCodeCommand",
  "getAnalyticsReport", "getBridgeStatus", "getChangeImpact", "getPerformanceReport", "getProjectContext",
  "getSessionUsage", "getToolCapabilities", "refactorAnalyze", "refactorExtractFunction", "refactorPreview",
  "searchTools", "watchActivityLog", "watchDiagnostics",
]);
