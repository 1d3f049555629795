// plan-refactor: a step-by-step plan for changing a symbol, with its blast radius (every use).
import { Assembly } from "../assembly.ts";
import { definePrompt } from "../define-prompt.ts";
import { wordPattern } from "../word-pattern.ts";

export default definePrompt({
  name: "plan-refactor",
  title: "Plan a refactor with its blast radius",
  description:
    "Plans a refactor of a symbol: its definition, every file that uses it, the tests that cover it and the churn of those files.",
  arguments: [
    { name: "symbol", description: "The symbol to refactor", required: true, complete: "symbol" },
    { name: "goal", description: "What the refactor should achieve" },
  ],
  async build(args, ctx) {
    const symbol = args.symbol ?? "";
    const bare = symbol.slice(symbol.lastIndexOf(".") + 1);
    const a = new Assembly(ctx);
    await a.add(`Definition of ${symbol}`, { tool: "navigateToSymbolByName", args: { name: symbol } });
    await a.add(`Every textual use of ${bare}`, { tool: "searchWorkspace", args: { pattern: wordPattern(bare), maxResults: 200 } });
    await a.add("Files that changed most lately", { tool: "getGitHotspots", args: { limit: 15 } });
    const goal = args.goal ? `The goal: ${args.goal}.` : "Propose the goal first if none is obvious.";
    return a.render(`Plan a refactor of ${symbol}. ${goal}
1. State the blast radius: every file and call site that must change (from the uses below; confirm with findReferences, which follows the language's own rules, and getCallHierarchy).
2. Give ordered, independently verifiable steps; prefer renameSymbol and the language server's code actions over text edits, and previewEdit before applying.
3. Name the tests that cover each step (findRelatedTests) and how to verify (runTests, getDiagnostics).
Do not edit anything yet: answer with the plan.`);
  },
});
