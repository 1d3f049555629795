// searchWorkspaceSymbols through VS Code (vscode.executeWorkspaceSymbolProvider): the symbols every
// installed extension finds for the query, ranked and printed as the headless answer is.
import type { ToolContext } from "../../../capabilities/context.ts";
import { renderPlaces } from "../locations.ts";
import { vsCodeSources } from "./places.ts";

export async function workspaceSymbolsViaVsCode(input: { query: string; maxResults: number }, ctx: ToolContext): Promise<string> {
  const answer = await ctx.extension.request(
    "extension/languageFeature",
    { feature: "workspaceSymbols", query: input.query },
    { signal: ctx.signal },
  );
  const found = answer.symbols ?? [];
  if (found.length === 0)
    return `No symbols match "${input.query}" (VS Code). Try a shorter part of the name, or searchWorkspace for text.`;
  // Exact and prefix matches first: what the model most likely meant.
  const q = input.query.toLowerCase();
  const rank = (name: string) => (name.toLowerCase() === q ? 0 : name.toLowerCase().startsWith(q) ? 1 : 2);
  const symbols = [...found].sort((a, b) => rank(a.name) - rank(b.name) || a.name.localeCompare(b.name));
  const shown = symbols.slice(0, input.maxResults);
  const where = await renderPlaces(
    shown.map((s) => ({ uri: s.uri, range: s.range })),
    { sources: vsCodeSources(ctx), verbosity: "minimal" },
  );
  const lines = shown.map((s, i) => `${s.name} ${s.kind}${s.containerName ? ` in ${s.containerName}` : ""}  ${where[i] ?? ""}`);
  const more = symbols.length > shown.length ? `\n… ${symbols.length - shown.length} more; narrow the query or raise maxResults.` : "";
  return `${symbols.length} symbol${symbols.length === 1 ? "" : "s"} match "${input.query}" (VS Code):\n${lines.join("\n")}${more}`;
}
