// explain-symbol: what a class, function or variable is, where it is defined and who uses it.
import { Assembly } from "../assembly.ts";
import { definePrompt } from "../define-prompt.ts";
import { wordPattern } from "../word-pattern.ts";

export default definePrompt({
  name: "explain-symbol",
  title: "Explain a symbol",
  description: "Explains a class, function or variable: its definition, its uses across the workspace, and how it came to be.",
  arguments: [{ name: "symbol", description: "The symbol's exact name (or Container.name)", required: true, complete: "symbol" }],
  async build(args, ctx) {
    const symbol = args.symbol ?? "";
    const a = new Assembly(ctx);
    await a.add(`Definition of ${symbol}`, { tool: "navigateToSymbolByName", args: { name: symbol } });
    const bare = symbol.slice(symbol.lastIndexOf(".") + 1);
    await a.add(`Uses of ${bare} (text search)`, { tool: "searchWorkspace", args: { pattern: wordPattern(bare), maxResults: 40 } });
    return a.render(`Explain ${symbol} to a developer new to this code: what it is for, its inputs and outputs, its invariants and side effects, and how the uses below depend on it.
Quote the lines you rely on (file:line). Where the definition is not enough, use getHover, goToDefinition or getCallHierarchy; say plainly what you could not determine.`);
  },
});
