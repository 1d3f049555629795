// find-dead-code: symbols of a file that nothing else in the workspace names, as candidates.
import { Assembly } from "../assembly.ts";
import { definePrompt } from "../define-prompt.ts";
import { wordPattern } from "../word-pattern.ts";

const MAX_CHECKED = 15;

export default definePrompt({
  name: "find-dead-code",
  title: "Find dead code",
  description: "Finds symbols of a file that nothing else uses: its symbols, each searched across the workspace.",
  arguments: [{ name: "file", description: "The file to check", required: true, complete: "path" }],
  async build(args, ctx) {
    const file = args.file ?? "";
    const a = new Assembly(ctx);
    const symbols = await a.add(`Symbols of ${file}`, { tool: "getDocumentSymbols", args: { file, maxDepth: 1 } });
    const names = topNames(symbols.text).slice(0, MAX_CHECKED);
    if (names.length === 0) a.note("no symbols could be read from the file; the language server may not cover it.");
    const counts: string[] = [];
    for (const name of names) {
      const found = await ctx.tool("searchWorkspace", { pattern: wordPattern(name), maxResults: 50 });
      const files = found.ok ? fileCount(found.text) : undefined;
      counts.push(`${name}: ${files === undefined ? "search failed" : `${files} file(s) mention it`}`);
    }
    if (names.length > 0) a.quote("How many files mention each symbol", counts.join("\n"), { source: "searchWorkspace" });
    return a.render(`Find dead code in ${file}. A symbol mentioned only in its own file is a candidate; confirm each with findReferences (text search misses dynamic uses and finds unrelated words), and check exports used by other packages, tests or configuration.
List the confirmed dead symbols with the evidence, and what is only suspicious. Remove nothing until the user agrees.`);
  },
});

/** getDocumentSymbols answers a header line, then one symbol a line ("name kind :line") indented by depth. */
function topNames(text: string): string[] {
  const names = text
    .split("\n")
    .slice(1)
    .map((line) => /^(?:- )?([A-Za-z_$][\w$]*)\b/.exec(line)?.[1])
    .filter((n): n is string => n !== undefined);
  return [...new Set(names)];
}

/** searchWorkspace groups hits by file; count its per-file headers. */
function fileCount(text: string): number {
  const match = /(\d+) files?\b/.exec(text);
  return match ? Number(match[1]) : 0;
}
