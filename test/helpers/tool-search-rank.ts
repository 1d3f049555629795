// A keyword tool search over what Claude Code's ToolSearch ranks on (protocol.md E: the tool's name,
// its searchHint and its description): BM25 over those words, the name's camelCase parts counted
// twice, with light stemming ("commits" = "commit", "changed" = "change") and English function
// words left out. Not Claude Code's own code, but the same inputs: a tool this search cannot find
// for the words a model would type is badly described.
import type { Tool } from "../../src/tools/platform/define-tool.ts";

const STOPWORDS = new Set(
  "a an and are as at be by did do does for from has have how i in is it its me my of on or the this that to was what when where which who why will with you your".split(
    " ",
  ),
);

/** Words a model types, stemmed the same way as the tools' text. */
export function searchWords(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== "" && !STOPWORDS.has(w))
    .map(stem);
}

/** "changes", "changed", "change" and "changing" all become "chang". */
function stem(word: string): string {
  if (word.length <= 3) return word;
  for (const [suffix, replacement] of [
    ["ies", "y"],
    ["ing", ""],
    ["ed", ""],
    ["es", ""],
    ["s", ""],
    ["e", ""],
  ] as const) {
    if (word.endsWith(suffix) && word.length - suffix.length >= 3) return word.slice(0, -suffix.length) + replacement;
  }
  return word;
}

export interface RankedTool {
  name: string;
  score: number;
}

/** Every tool, best match first, for one query. */
export function rankTools(tools: readonly Tool[], query: string): RankedTool[] {
  const docs = tools.map((t) => ({
    name: t.name,
    words: [...searchWords(t.name), ...searchWords(t.name), ...searchWords(t.searchHint), ...searchWords(t.description)],
  }));
  const avgLength = docs.reduce((n, d) => n + d.words.length, 0) / docs.length;
  const documentFrequency = new Map<string, number>();
  for (const d of docs) for (const w of new Set(d.words)) documentFrequency.set(w, (documentFrequency.get(w) ?? 0) + 1);
  const k1 = 1.2;
  const b = 0.75;
  const terms = [...new Set(searchWords(query))];
  return docs
    .map((d) => {
      let score = 0;
      for (const term of terms) {
        const tf = d.words.filter((w) => w === term).length;
        if (tf === 0) continue;
        const n = documentFrequency.get(term) ?? 0;
        const idf = Math.log(1 + (docs.length - n + 0.5) / (n + 0.5));
        score += (idf * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * d.words.length) / avgLength));
      }
      return { name: d.name, score };
    })
    .sort((x, y) => y.score - x.score || x.name.localeCompare(y.name));
}
