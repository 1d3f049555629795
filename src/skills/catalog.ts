// The bridge's workflows as skills. Each names the tools it uses, in order.
import { defineSkill, type Skill } from "./define-skill.ts";

export const SKILLS: readonly Skill[] = [
  defineSkill({
    name: "navigate-before-edit",
    description:
      "Before changing code you have not read: find the definition, its callers and its tests through the language servers, so the edit fits what depends on it.",
    tools: ["navigateToSymbolByName", "getDocumentSymbols", "findReferences", "getCallHierarchy", "findRelatedTests", "readFile"],
    body: `# Navigate before you edit

1. Find the code by name with \`navigateToSymbolByName\` (or \`searchWorkspaceSymbols\` for part of a name); outline its file with \`getDocumentSymbols\`.
2. Read the definition with \`readFile\` (a line range, not the whole file).
3. List every use with \`findReferences\` and the callers with \`getCallHierarchy\`; these follow the language's rules, unlike a text search.
4. Find the tests that cover it with \`findRelatedTests\`.
5. Only now plan the edit: say which callers and tests it affects.`,
  }),
  defineSkill({
    name: "refactor-safely",
    description:
      "Refactor with a preview: rename and restructure through the language server's own edits, preview before applying, then check diagnostics and tests.",
    tools: ["prepareRename", "renameSymbol", "getCodeActions", "previewCodeAction", "previewEdit", "getDiagnostics", "runTests"],
    body: `# Refactor safely

1. For a rename, check it with \`prepareRename\`, then \`renameSymbol\`: the language server edits every file that refers to it.
2. For restructuring, ask \`getCodeActions\` at the place (extract function, move, organise imports) and look at the change with \`previewCodeAction\` before applying it.
3. For hand-written edits, stage them and look at \`previewEdit\` before committing them.
4. After each step: \`getDiagnostics\` on the changed files must show no new errors, and \`runTests\` on the related tests must pass.
5. Stop and report when a step breaks something you cannot fix in the same step.`,
  }),
  defineSkill({
    name: "debug-failing-test",
    description: "Debug a failing test: run it alone, read the failure, trace it to the code, fix the cause and run it again.",
    tools: ["runTests", "readFile", "goToDefinition", "getHover", "searchWorkspace", "getGitLog", "getDiagnostics"],
    body: `# Debug a failing test

1. Run only the failing test with \`runTests\` (filter or file) and read its message and location.
2. Read the test with \`readFile\`; follow what it calls with \`goToDefinition\` and check types with \`getHover\`.
3. Decide whether the test or the code is wrong; \`getGitLog\` on both files shows which changed last.
4. Fix the cause (not the assertion, unless the test is wrong), check \`getDiagnostics\`, and run the test again with \`runTests\`.
5. Run the tests related to the fix to be sure nothing else broke.`,
  }),
  defineSkill({
    name: "review-before-commit",
    description:
      "Review your own changes before committing: status, diff, diagnostics and tests, then a commit message in the repository's style.",
    tools: ["getGitStatus", "getGitDiff", "getDiagnostics", "findRelatedTests", "runTests", "getGitLog", "gitAdd", "gitCommit"],
    body: `# Review before you commit

1. \`getGitStatus\`: what changed, what is staged, anything untracked that should not be committed.
2. \`getGitDiff\` (staged: true for what will be committed): look for leftovers, secrets, unrelated changes.
3. \`getDiagnostics\` on the changed files: no new errors or warnings.
4. \`findRelatedTests\` for each changed file, then \`runTests\` on them.
5. Write the message in the style of \`getGitLog\`'s recent commits; stage with \`gitAdd\` and commit with \`gitCommit\` once the user agrees.`,
  }),
];
