// The language-intelligence toolsets, split by what a model searches for: getting
// around the code, and what the code is and what is wrong with it. Every tool answers headless,
// through the workspace's language servers (ctx.lsp).
import { defineToolset } from "../platform/toolset.ts";
import type { ToolsetDefaults } from "../platform/toolset-defaults.ts";
import applyCodeAction from "./apply-code-action.ts";
import findImplementations from "./find-implementations.ts";
import findReferences from "./find-references.ts";
import getCallHierarchy from "./get-call-hierarchy.ts";
import getCodeActions from "./get-code-actions.ts";
import getDocumentSymbols from "./get-document-symbols.ts";
import getHover from "./get-hover.ts";
import getTypeHierarchy from "./get-type-hierarchy.ts";
import getTypeSignature from "./get-type-signature.ts";
import goToDeclaration from "./go-to-declaration.ts";
import goToDefinition from "./go-to-definition.ts";
import goToTypeDefinition from "./go-to-type-definition.ts";
import jumpToFirstError from "./jump-to-first-error.ts";
import navigateToSymbolByName from "./navigate-to-symbol.ts";
import formatRange from "./format-range.ts";
import organizeImports from "./organize-imports.ts";
import prepareRename from "./prepare-rename.ts";
import previewCodeAction from "./preview-code-action.ts";
import renameSymbol from "./rename-symbol.ts";
import searchWorkspaceSymbols from "./search-workspace-symbols.ts";
import signatureHelp from "./signature-help.ts";
import watchDiagnostics from "./watch-diagnostics.ts";
import batchFindImplementations from "./batch-find-implementations.ts";
import batchGetHover from "./batch-get-hover.ts";
import batchGoToDefinition from "./batch-go-to-definition.ts";
import explainDiagnostic from "./explain-diagnostic.ts";
import explainSymbol from "./explain-symbol.ts";
import foldingRanges from "./folding-ranges.ts";
import getCodeLens from "./get-code-lens.ts";
import getDocumentLinks from "./get-document-links.ts";
import getHoverAtCursor from "./get-hover-at-cursor.ts";
import getImportedSignatures from "./get-imported-signatures.ts";
import getImportTree from "./get-import-tree.ts";
import getInlayHints from "./get-inlay-hints.ts";
import getSemanticTokens from "./get-semantic-tokens.ts";
import selectionRanges from "./selection-ranges.ts";
import refactorAnalyze from "./refactor-analyze.ts";
import refactorExtractFunction from "./refactor-extract-function.ts";
import refactorPreview from "./refactor-preview.ts";
import safeApplyEdit from "./safe-apply-edit.ts";
import simulateChain from "./simulate-chain.ts";
import simulateEdit from "./simulate-edit.ts";

// The first call on a file may start its language server; tools that wait longer say so themselves.
// rg, when there, is the text search whole-project answers are checked against.
const LANGUAGE_SERVER_DEFAULTS: ToolsetDefaults = { timeoutMs: 60_000, requires: { optionalProbes: ["rg"] } };

export const codeNavigationToolset = defineToolset({
  name: "code-navigation",
  purpose: "go to definition, references/usages, implementations, call/type hierarchy, symbols, outline",
  defaults: LANGUAGE_SERVER_DEFAULTS,
  tools: [
    goToDefinition,
    findReferences,
    goToDeclaration,
    goToTypeDefinition,
    findImplementations,
    getCallHierarchy,
    getTypeHierarchy,
    getDocumentSymbols,
    searchWorkspaceSymbols,
    navigateToSymbolByName,
    batchGoToDefinition,
    batchFindImplementations,
    getImportTree,
    getDocumentLinks,
    foldingRanges,
    selectionRanges,
  ],
});

export const codeIntelligenceToolset = defineToolset({
  name: "code-intelligence",
  purpose: "hover, signatures, type errors, quick fixes, rename, refactor, imports; change impact, unused code, API docs",
  defaults: LANGUAGE_SERVER_DEFAULTS,
  tools: [
    getHover,
    getTypeSignature,
    signatureHelp,
    jumpToFirstError,
    watchDiagnostics,
    getCodeActions,
    prepareRename,
    renameSymbol,
    previewCodeAction,
    applyCodeAction,
    organizeImports,
    formatRange,
    batchGetHover,
    getHoverAtCursor,
    explainSymbol,
    explainDiagnostic,
    getImportedSignatures,
    getInlayHints,
    getSemanticTokens,
    getCodeLens,
    simulateEdit,
    safeApplyEdit,
    simulateChain,
    refactorAnalyze,
    refactorPreview,
    refactorExtractFunction,
  ],
});
