// Claude Code's ToolSearch keyword ranking, as the CLI 2.1.332 computes it for an MCP tool, so that
// a unit test can rank a phrase in a millisecond. The real CLI is the judge: the e2e test
// test/e2e/claude-tool-search.test.ts asks it the same phrases and fails when this ranking and the
// CLI's answers differ. What the CLI does, per query word (the query lowercased, split on spaces):
// - the tool's name parts are the server name and the tool name, lowercased and split on spaces,
//   "_" and "." only (so "getDiagnostics" is one part "getdiagnostics", with no camelCase split);
//   a word that is a whole part scores 12, a word inside a part 6; the same again for the coarse
//   parts (server name and tool name unsplit): 12 whole, 4 inside. So "in" or "a" score 10 on every
//   tool whose name holds those letters, and plain words reach a tool mostly through its hint;
// - a word found, as a whole word, in the first 4,096 characters of the tool's searchHint: 4;
// - a word found, as a whole word, in the tool's description: 2;
// - a tool whose score is still 0 gets 3 when the word is inside its name parts joined by spaces.
// Tools scoring 0 are left out; the rest are sorted by score, ties by name, case aside (the CLI
// holds its deferred tools sorted so), and the first max_results (5 by default) returned. Claude Code's own
// deferred tools (CronCreate, ExitWorktree, ...) compete for the same five places; they are not
// here, so this ranking orders the bridge's tools among themselves, and the e2e test measures
// how many places the CLI's own tools take.
import type { Tool } from "../../src/tools/platform/define-tool.ts";

/** The server name the README's `claude mcp add` gives the bridge. */
export const README_SERVER_NAME = "claude-ide-bridge";
const HINT_CHARS = 4096;

export interface SearchableTool {
  name: string;
  searchHint?: string;
  description: string;
}

export interface RankedTool {
  name: string;
  score: number;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The query words as the CLI reads them. */
export function queryWords(query: string): string[] {
  return query
    .trim()
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w.length > 0);
}

function scoreTool(tool: SearchableTool, words: readonly string[], serverName: string): number {
  const coarse = [serverName, tool.name].filter(Boolean).map((p) => p.toLowerCase());
  const parts = coarse.flatMap((p) => p.split(/[\s_.]+/)).filter(Boolean);
  const full = parts.join(" ");
  const hint = (tool.searchHint ?? "").slice(0, HINT_CHARS).toLowerCase();
  const description = tool.description.toLowerCase();
  let score = 0;
  for (const word of words) {
    const whole = new RegExp(`\\b${escapeRegExp(word)}\\b`);
    if (parts.includes(word)) score += 12;
    else if (parts.some((p) => p.includes(word))) score += 6;
    if (coarse.includes(word)) score += 12;
    else if (coarse.some((p) => p.includes(word))) score += 4;
    if (full.includes(word) && score === 0) score += 3;
    if (hint && whole.test(hint)) score += 4;
    if (description.includes(word) && whole.test(description)) score += 2;
  }
  return score;
}

/** The tools ToolSearch returns for a keyword query, best first, as the CLI ranks them. */
export function toolSearch(
  tools: readonly SearchableTool[],
  query: string,
  opts: { serverName?: string; maxResults?: number } = {},
): RankedTool[] {
  const words = queryWords(query);
  const serverName = opts.serverName ?? README_SERVER_NAME;
  return tools
    .map((t) => ({ name: t.name, score: scoreTool(t, words, serverName) }))
    .filter((t) => t.score > 0)
    .sort((a, b) => b.score - a.score || a.name.localeCompare(b.name, "en"))
    .slice(0, opts.maxResults ?? 5);
}

/** Every tool with a score, best first (for messages that explain a miss). */
export function rankTools(tools: readonly Tool[], query: string, opts: { serverName?: string } = {}): RankedTool[] {
  return toolSearch(tools, query, { ...opts, maxResults: tools.length });
}
