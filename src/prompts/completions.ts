// completion/complete for prompt arguments: file paths inside the jail (findFiles), symbol names
// from the language servers (searchWorkspaceSymbols), branch and ref names (gitListBranches) and
// the failing tests of the latest run. Each answers from the bridge's own tools, so the jail and
// the tools' limits hold; a source that cannot answer gives no values rather than a guess.
import type { CompletionKind } from "./define-prompt.ts";
import type { PromptContext } from "./prompt-context.ts";
import { branchNames, foundFiles } from "./tool-lines.ts";

/** The protocol allows at most 100 values per completion. */
export const MAX_COMPLETIONS = 100;

export interface Completion {
  values: string[];
  total: number;
  hasMore: boolean;
}

export async function complete(kind: CompletionKind, prefix: string, ctx: PromptContext): Promise<Completion> {
  const all = await candidates(kind, prefix, ctx);
  const lower = prefix.toLowerCase();
  const matching = [...new Set(all)].filter((value) => value.toLowerCase().includes(lower));
  // Values that start with what was typed come first; then the rest, in the order the tool gave.
  matching.sort((a, b) => Number(!a.toLowerCase().startsWith(lower)) - Number(!b.toLowerCase().startsWith(lower)));
  return { values: matching.slice(0, MAX_COMPLETIONS), total: matching.length, hasMore: matching.length > MAX_COMPLETIONS };
}

async function candidates(kind: CompletionKind, prefix: string, ctx: PromptContext): Promise<string[]> {
  switch (kind) {
    case "path":
      return paths(prefix, ctx);
    case "symbol": {
      if (prefix.trim() === "") return [];
      const found = await ctx.tool("searchWorkspaceSymbols", { query: prefix, maxResults: MAX_COMPLETIONS });
      return found.ok ? symbolNames(found.text) : [];
    }
    case "branch":
    case "ref": {
      const found = await ctx.tool("gitListBranches", kind === "ref" ? { includeRemote: true } : {});
      return found.ok ? branchNames(found.text) : [];
    }
    case "failingTest":
      return (ctx.recentTests()?.failures ?? []).map((f) => f.test);
  }
}

async function paths(prefix: string, ctx: PromptContext): Promise<string[]> {
  // A directory typed so far narrows the search to it; the rest of the text matches anywhere in
  // the path below it. Leading "./" is how people type relative paths.
  const typed = prefix.replace(/^\.\//, "");
  const slash = typed.lastIndexOf("/");
  const dir = slash >= 0 ? typed.slice(0, slash) : "";
  const found = await ctx.tool("findFiles", {
    pattern: `**/*${escapeGlob(typed.slice(slash + 1))}*`,
    ...(dir === "" ? {} : { path: dir }),
    maxResults: 500,
  });
  return found.ok ? foundFiles(found.text).files : [];
}

function escapeGlob(text: string): string {
  return text.replace(/[*?[\]{}!\\]/g, "");
}

/** searchWorkspaceSymbols answers in text, one symbol a line after its header: "name kind in container  file:line". */
function symbolNames(text: string): string[] {
  const lines = text.split("\n");
  const header = lines.findIndex((line) => / match "/.test(line));
  if (header < 0) return [];
  return lines
    .slice(header + 1)
    .map((line) => /^([^\s…]+) /.exec(line)?.[1])
    .filter((name): name is string => name !== undefined);
}
