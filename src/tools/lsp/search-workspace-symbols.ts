// searchWorkspaceSymbols: symbols whose names match a query, across the whole workspace.
import * as v from "valibot";
import { defineTool } from "../platform/define-tool.ts";
import { renderPlaces, SourceLines } from "./locations.ts";
import { maxResultsField } from "./position-input.ts";
import { symbolKindName } from "./symbol-kinds.ts";
import { searchSymbols } from "./workspace-symbols.ts";
import { workspaceSymbolsViaVsCode } from "./vscode/workspace-symbols.ts";

export default defineTool({
  name: "searchWorkspaceSymbols",
  title: "Search workspace symbols",
  description:
    "Searches the whole workspace for classes, functions, types and variables whose names match a query (fuzzy, as the language servers match), with file:line:col.",
  searchHint: "search symbols by name find class function type across project workspace symbol",
  input: v.strictObject({
    query: v.pipe(v.string(), v.minLength(1), v.maxLength(200), v.description('Part of the name, e.g. "UserServ".')),
    ...maxResultsField(50, 500),
  }),
  annotations: { readOnlyHint: true },
  slim: true,
  viaExtension: workspaceSymbolsViaVsCode,
  async handler(input, ctx) {
    const found = await searchSymbols(input.query, ctx);
    const note = found.complete ? "" : `PARTIAL: ${found.why.join("; ")}; call again for the complete answer.\n`;
    if (found.symbols.length === 0)
      return `${note}No symbols match "${input.query}". Try a shorter part of the name, or searchWorkspace for text.`;
    // Exact and prefix matches first: what the model most likely meant.
    const q = input.query.toLowerCase();
    const rank = (name: string) => (name.toLowerCase() === q ? 0 : name.toLowerCase().startsWith(q) ? 1 : 2);
    const symbols = [...found.symbols].sort((a, b) => rank(a.name) - rank(b.name) || a.name.localeCompare(b.name));
    const shown = symbols.slice(0, input.maxResults);
    const where = await renderPlaces(
      shown.map((s) => s.place),
      { sources: new SourceLines(ctx), verbosity: "minimal" },
    );
    const lines = shown.map((s, i) => `${s.name} ${symbolKindName(s.kind)}${s.container ? ` in ${s.container}` : ""}  ${where[i] ?? ""}`);
    const more = symbols.length > shown.length ? `\n… ${symbols.length - shown.length} more; narrow the query or raise maxResults.` : "";
    return `${note}${symbols.length} symbol${symbols.length === 1 ? "" : "s"} match "${input.query}":\n${lines.join("\n")}${more}`;
  },
});
