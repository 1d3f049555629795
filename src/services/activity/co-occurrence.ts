// Which tools are used together: within one session, a call followed by a call of another tool
// within five minutes counts once for that pair (in either order). Shows workflows
// ("findFiles then readFile") and which tools a toolset split would separate.
import type { ToolCallEntry } from "../../capabilities/activity/activity-entry.ts";

const WINDOW_MS = 5 * 60_000;

export interface ToolPair {
  tools: [string, string];
  count: number;
}

export function coOccurrence(calls: readonly ToolCallEntry[], limit = 10): ToolPair[] {
  const last = new Map<string, ToolCallEntry>();
  const counts = new Map<string, number>();
  for (const call of [...calls].sort((a, b) => a.at - b.at || a.seq - b.seq)) {
    const before = last.get(call.session);
    if (before !== undefined && before.tool !== call.tool && call.at - before.at <= WINDOW_MS) {
      const key = [before.tool, call.tool].sort().join("\0");
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    last.set(call.session, call);
  }
  return [...counts]
    .map(([key, count]) => ({ tools: key.split("\0") as [string, string], count }))
    .sort((a, b) => b.count - a.count || a.tools.join().localeCompare(b.tools.join()))
    .slice(0, limit);
}
