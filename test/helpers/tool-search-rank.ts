// A keyword ranking of tools, in the spirit of Claude Code's ToolSearch (it ranks on names, search
// hints and descriptions; protocol.md E). Not its exact algorithm: a test that a model's words
// reach a tool through what the tool says about itself. A word is worth more in the name than in
// the hint, more in the hint than in the description, and more when few tools use it (IDF, as any
// keyword search weighs terms: "file" says little among 90 tools, "outline" a lot).
import type { Tool } from "../../src/tools/define-tool.ts";

const STOPWORDS = new Set(["a", "an", "the", "of", "to", "in", "on", "for", "is", "it", "this", "that", "me", "my", "i", "and", "or", "with", "what", "do", "does", "which", "from", "by", "all"]);

/** Lowercase words, camelCase split, a plural "s" dropped, stopwords out. */
export function words(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== "" && !STOPWORDS.has(w))
    .map((w) => (w.length > 3 && w.endsWith("s") && !w.endsWith("ss") ? w.slice(0, -1) : w));
}

export function rankTools(query: string, tools: readonly Tool[]): string[] {
  const fields = tools.map((tool) => ({
    name: tool.name,
    inName: new Set(words(tool.name)),
    inHint: new Set(words(tool.searchHint)),
    inDescription: new Set(words(tool.description)),
  }));
  const idf = (term: string) => {
    const df = fields.filter((f) => f.inName.has(term) || f.inHint.has(term) || f.inDescription.has(term)).length;
    return df === 0 ? 0 : Math.log(1 + tools.length / df);
  };
  const terms = [...new Set(words(query))].map((term) => ({ term, weight: idf(term) }));
  return fields
    .map((f) => ({
      name: f.name,
      score: terms.reduce((sum, { term, weight }) => sum + weight * ((f.inName.has(term) ? 3 : 0) + (f.inHint.has(term) ? 2 : 0) + (f.inDescription.has(term) ? 1 : 0)), 0),
    }))
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || a.name.localeCompare(b.name))
    .map((s) => s.name);
}
