// Workspace symbol search across every language server of the workspace, for searchWorkspaceSymbols
// and navigateToSymbolByName: waits for each server's readiness, merges their answers.
import type { SymbolInformation, WorkspaceSymbol } from "vscode-languageserver-protocol";
import type { Answer } from "../../lsp/whole-project.ts";
import type { ToolContext } from "../../capabilities/context.ts";
import type { Place } from "./locations.ts";

interface FoundSymbol {
  name: string;
  kind: number;
  container: string | undefined;
  place: Place;
}

interface SymbolSearch {
  symbols: FoundSymbol[];
  complete: boolean;
  why: string[];
}

export async function searchSymbols(query: string, ctx: ToolContext): Promise<SymbolSearch> {
  const running = await ctx.lsp.workspaceServers({
    method: "workspace/symbol",
    signal: ctx.signal,
    onProgress: (message) => ctx.progress(0, { message }),
  });
  // One server per language and root: a second of the same language (typescript-language-server,
  // started for a refactor tsgo has none of) repeats the first's symbols with other ranges. The
  // pool lists a language's first server before any it fell back to.
  const servers = running.filter(
    (s, i) =>
      running.findIndex(
        (o) => o.launch.root === s.launch.root && o.launch.spec.languages.some((l) => s.launch.spec.languages.includes(l)),
      ) === i,
  );
  const result: SymbolSearch = { symbols: [], complete: true, why: [] };
  const seen = new Set<string>();
  await Promise.all(
    servers.map(async (server) => {
      const answer = await ctx.lsp
        .wholeProject(
          server,
          () => server.request<(SymbolInformation | WorkspaceSymbol)[] | null>("workspace/symbol", { query }, { signal: ctx.signal }),
          ctx.signal,
        )
        .catch((err: unknown) => {
          // One server without a project (typescript-language-server with no file open) must not hide the others' answers.
          result.why.push(err instanceof Error ? err.message : String(err));
          const none: Answer<SymbolInformation[]> = { value: [], complete: true };
          return none;
        });
      if (!answer.complete) {
        result.complete = false;
        if (answer.why) result.why.push(answer.why);
      }
      for (const s of answer.value ?? []) {
        const range = "range" in s.location ? s.location.range : { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
        const key = `${s.name}@${s.location.uri}:${range.start.line}:${range.start.character}`;
        if (seen.has(key)) continue;
        seen.add(key);
        result.symbols.push({ name: s.name, kind: s.kind, container: s.containerName || undefined, place: { uri: s.location.uri, range } });
      }
    }),
  );
  return result;
}
