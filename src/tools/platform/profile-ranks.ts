// Which tools a capped client (--profile vscode|windsurf, at most 100 tools) loses, tool by tool.
// Every built-in tool is ranked here, in one of two lists, and a unit test holds the catalogue to
// it, so a new tool cannot push a profile over its cap unnoticed: it must be ranked first.
//
// Why by tool and not by toolset: dropping whole toolsets took search and edit from VS Code's agent,
// which wants them through the bridge for the jail and the verified edits. The tools a profile drops
// are the ones the capped client does itself (its own agent, editor UI, terminals, debugger views),
// then the ones a model rarely needs to answer a question about code.

/**
 * Least useful to a capped client first: a profile drops from the front until the count fits, so
 * the list's tail is the slack new tools take before anything in PROFILE_KEEP could be at risk.
 */
export const PROFILE_DROP_ORDER: readonly string[] = [
  // The client is an agent already: background Claude Code tasks add a second one.
  ...["runClaudeTask", "getClaudeTaskStatus", "listClaudeTasks", "cancelClaudeTask", "resumeClaudeTask", "launchQuickTask"],
  // The bridge's own introspection beyond getToolCapabilities: its dashboard and CLI show it to the user.
  ...["getAnalyticsReport", "getSessionUsage", "getPerformanceReport", "watchActivityLog", "getActivityLog", "getBridgeStatus"],
  ...["bridgeDoctor", "searchTools"],
  // The editor the client runs in: its commands, tasks, settings, clipboard, notebooks, terminals and editors are its own UI.
  ...["captureScreenshot", "readClipboard", "writeClipboard", "setEditorDecorations", "clearEditorDecorations"],
  ...["getNotebookCells", "getNotebookOutput", "runNotebookCell", "listVSCodeCommands", "executeVSCodeCommand"],
  ...["listVSCodeTasks", "runVSCodeTask", "getWorkspaceSettings", "setWorkspaceSetting"],
  ...["createTerminal", "listTerminals", "sendTerminalCommand", "getTerminalOutput", "waitForTerminalOutput", "disposeTerminal"],
  ...["getLatestSelection", "getCurrentSelection", "getOpenEditors", "openFile", "closeTab", "saveDocument"],
  ...["checkDocumentDirty", "getAIComments", "getBufferContent"],
  // GitHub: the client's agent reaches it through gh in its own terminal.
  ...["githubListRuns", "githubGetRunLogs", "githubPostPRReview", "githubCreatePR", "githubGetPRDiff", "githubViewPR"],
  ...["githubListPRs", "createGithubIssueFromAIComment", "githubCommentIssue", "githubCreateIssue", "githubGetIssue"],
  ...["githubListIssues"],
  // Other windows and notes between sessions: the client keeps its own windows and memory.
  ...["spawnWorkspace", "stopWorkspace", "deletePlan", "listPlans", "updatePlan", "getPlan", "createPlan"],
  ...["getHandoffNote", "setHandoffNote", "getDiffFromHandoff"],
  // Language-server views a model rarely needs, and batches of calls it can make one by one.
  ...["foldingRanges", "selectionRanges", "getSemanticTokens", "getDocumentLinks", "getCodeLens", "getInlayHints"],
  ...["batchGoToDefinition", "batchFindImplementations", "batchGetHover", "getHoverAtCursor"],
  // Text the client's own model writes as well.
  ...["generateTests", "generateAPIDocumentation"],
  // HTTP files and a terminal command: the client's own terminal does them.
  ...["parseHttpFile", "sendHttpRequest", "runInTerminal"],
  // Watching files between calls.
  ...["unwatchFiles", "watchFiles", "getFileChanges"],
  // Slack: dropped only when tools added later need the room (today's catalogue keeps them).
  ...["gitStashList", "gitStashPop", "gitStash"],
  ...["getGitHotspots", "getSymbolHistory", "getPRTemplate", "getArchitectureContext", "testTraceToSource"],
  ...["getCodeCoverage", "getDependencyTree", "auditDependencies"],
  // The debugger goes last of all and whole: a part of it is no debugger.
  ...["getDebugOutput", "debugPause", "debugStepOut", "debugStepIn", "debugStepOver", "debugContinue"],
  ...["evaluateInDebugger", "getDebugState", "setDebugBreakpoints", "stopDebugging", "startDebugging"],
];

/**
 * What no profile drops: reading and finding (workspace, search), the language servers' answers, the
 * jailed and verified edits, files, everyday git, checkers and tests, and getToolCapabilities, which
 * says what a profile left out.
 */
export const PROFILE_KEEP: readonly string[] = [
  ...["getWorkspaceFolders", "getProjectInfo", "getFileTree", "findFiles", "readFile", "setActiveWorkspaceFolder"],
  ...["goToDefinition", "findReferences", "goToDeclaration", "goToTypeDefinition", "findImplementations"],
  ...["getCallHierarchy", "getTypeHierarchy", "getDocumentSymbols", "searchWorkspaceSymbols", "navigateToSymbolByName"],
  ...["getImportTree"],
  ...["getHover", "getTypeSignature", "signatureHelp", "jumpToFirstError", "watchDiagnostics", "getCodeActions"],
  ...["prepareRename", "renameSymbol", "previewCodeAction", "applyCodeAction", "organizeImports", "formatRange"],
  ...["explainSymbol", "explainDiagnostic", "getImportedSignatures", "simulateEdit", "safeApplyEdit", "simulateChain"],
  ...["refactorAnalyze", "refactorPreview", "refactorExtractFunction", "getChangeImpact", "detectUnusedCode"],
  ...["createFile", "deleteFile", "renameFile"],
  ...["replaceBlock", "editText", "previewEdit", "beginTransaction", "stageEdit", "commitTransaction", "rollbackTransaction"],
  ...["searchWorkspace", "searchAndReplace", "findRelatedTests", "getProjectContext", "contextBundle"],
  ...["getGitStatus", "getGitDiff", "getGitLog", "getCommitDetails", "getDiffBetweenRefs", "gitBlame", "gitListBranches"],
  ...["gitAdd", "gitCommit", "gitCheckout", "gitFetch", "gitPull", "gitPush", "gitContinueOperation", "gitAbortOperation"],
  ...["runCommand", "runTests"],
  ...["getDiagnostics", "fixAllLintErrors", "formatDocument", "formatAndSave", "getSecurityAdvisories"],
  ...["getToolCapabilities"],
];
