// The LSP toolsets' names, what loads up front, and what the --slim set keeps: pinned here, so a
// tool renamed or dropped is a visible change (test/unit/tools/registry.test.ts checks the contract).
import { describe, expect, it } from "vitest";
import { codeIntelligenceToolset, codeNavigationToolset } from "../../../src/tools/lsp/index.ts";

const names = (tools: readonly { name: string }[]) => tools.map((t) => t.name);

describe("the LSP toolsets", () => {
  it("hold the original's tool names", () => {
    expect(names(codeNavigationToolset.tools)).toEqual([
      "goToDefinition",
      "findReferences",
      "goToDeclaration",
      "goToTypeDefinition",
      "findImplementations",
      "getCallHierarchy",
      "getTypeHierarchy",
      "getDocumentSymbols",
      "searchWorkspaceSymbols",
      "navigateToSymbolByName",
      "batchGoToDefinition",
      "batchFindImplementations",
      "getImportTree",
      "getDocumentLinks",
      "foldingRanges",
      "selectionRanges",
    ]);
    expect(names(codeIntelligenceToolset.tools)).toEqual([
      "getHover",
      "getTypeSignature",
      "signatureHelp",
      "jumpToFirstError",
      "watchDiagnostics",
      "getCodeActions",
      "prepareRename",
      "renameSymbol",
      "previewCodeAction",
      "applyCodeAction",
      "organizeImports",
      "formatRange",
      "batchGetHover",
      "getHoverAtCursor",
      "explainSymbol",
      "explainDiagnostic",
      "getImportedSignatures",
      "getInlayHints",
      "getSemanticTokens",
      "getCodeLens",
      "simulateEdit",
      "safeApplyEdit",
      "simulateChain",
      "refactorAnalyze",
      "refactorPreview",
      "refactorExtractFunction",
    ]);
  });

  it("load two tools up front, keep the original's slim ones; only the edit tools write", () => {
    const all = [...codeNavigationToolset.tools, ...codeIntelligenceToolset.tools];
    expect(names(all.filter((t) => t.alwaysLoad))).toEqual(["goToDefinition", "findReferences"]);
    // Not slim in the original: getTypeSignature, navigateToSymbolByName, jumpToFirstError,
    // explainDiagnostic, and the speculative edits it did not have.
    expect(names(all.filter((t) => !t.slim)).sort()).toEqual([
      "explainDiagnostic",
      "formatRange",
      "getTypeSignature",
      "jumpToFirstError",
      "navigateToSymbolByName",
      "safeApplyEdit",
      "simulateChain",
      "simulateEdit",
    ]);
    expect(names(all.filter((t) => t.annotations.readOnlyHint !== true))).toEqual([
      "renameSymbol",
      "applyCodeAction",
      "organizeImports",
      "formatRange",
      "safeApplyEdit",
      "refactorExtractFunction",
    ]);
  });
});
