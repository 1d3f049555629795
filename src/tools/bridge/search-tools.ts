// searchTools: keyword search over this bridge's tools (names split at camelCase, search hints,
// titles, descriptions), for clients without a tool search of their own. A word matching a name
// counts most, then the hint, then the title and description; a word's prefix ("diagnos") matches.
import * as v from "valibot";
import type { ToolSummary } from "../../capabilities/context.ts";
import { defineTool } from "../platform/define-tool.ts";

const WEIGHTS = { name: 4, hint: 3, title: 2, description: 1 } as const;
const STOP = new Set([
  "a",
  "an",
  "the",
  "of",
  "to",
  "in",
  "on",
  "for",
  "and",
  "or",
  "is",
  "it",
  "my",
  "this",
  "that",
  "with",
  "what",
  "how",
  "do",
  "i",
]);

export default defineTool({
  name: "searchTools",
  title: "Search tools",
  description:
    "Finds bridge tools by keywords over their names, search hints and descriptions, best match first, for clients without tool search.",
  searchHint: "search find which tool does keyword lookup discover tools list capabilities",
  input: v.strictObject({
    query: v.pipe(
      v.string(),
      v.minLength(1),
      v.maxLength(200),
      v.description('What you want to do, in words: "rename a symbol", "git blame".'),
    ),
    limit: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(50), v.description("At most this many tools (default 10).")),
      10,
    ),
  }),
  output: v.object({
    tools: v.array(v.object({ name: v.string(), description: v.string(), score: v.number() })),
    matched: v.pipe(v.number(), v.description("Tools that matched any word, before the limit.")),
  }),
  annotations: { readOnlyHint: true },
  async handler(input, ctx) {
    const words = wordsOf(input.query).filter((w) => !STOP.has(w));
    const ranked = ctx.catalog
      .list()
      .map((tool) => ({ tool, score: scoreOf(tool, words, input.query) }))
      .filter((r) => r.score > 0)
      .sort((a, b) => b.score - a.score || a.tool.name.localeCompare(b.tool.name));
    return {
      tools: ranked.slice(0, input.limit).map((r) => ({ name: r.tool.name, description: r.tool.description, score: r.score })),
      matched: ranked.length,
    };
  },
});

/** Lowercase words, camelCase and snake_case split: "getGitStatus" -> get, git, status. */
export function wordsOf(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0);
}

function scoreOf(tool: ToolSummary, words: readonly string[], query: string): number {
  if (tool.name.toLowerCase() === query.trim().toLowerCase()) return 100;
  const fields: [keyof typeof WEIGHTS, string[]][] = [
    ["name", wordsOf(tool.name)],
    ["hint", wordsOf(tool.searchHint ?? "")],
    ["title", wordsOf(tool.title ?? "")],
    ["description", wordsOf(tool.description)],
  ];
  let score = 0;
  for (const word of words) {
    // Each word counts once, in the field that weighs most.
    const best = fields.find(([, have]) =>
      have.some((h) => h === word || (word.length >= 4 && h.startsWith(word)) || (h.length >= 4 && word.startsWith(h))),
    );
    if (best !== undefined) score += WEIGHTS[best[0]];
  }
  return score;
}
