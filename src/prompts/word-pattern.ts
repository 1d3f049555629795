// A regex that finds a name as a whole word (for searchWorkspace), whatever characters it holds.

export function wordPattern(name: string): string {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  // \b only works next to word characters; names such as $store start with one that is not.
  const start = /^\w/.test(name) ? "\\b" : "";
  const end = /\w$/.test(name) ? "\\b" : "";
  return `${start}${escaped}${end}`;
}
