// Claude Code's stream-json events as the short lines a task's output shows: what the assistant
// said, which tools it called, how it ended. Raw tool results stay out (they can be whole files).
const MAX_LINE_CHARS = 500;

export function outputLines(event: Record<string, unknown>): string[] {
  if (event.type === "system" && event.subtype === "init") {
    return [`[start] model ${typeof event.model === "string" ? event.model : "?"}`];
  }
  if (event.type === "assistant") {
    const content = (event.message as { content?: unknown } | undefined)?.content;
    if (!Array.isArray(content)) return [];
    const lines: string[] = [];
    for (const block of content as { type?: unknown; text?: unknown; name?: unknown }[]) {
      if (block.type === "text" && typeof block.text === "string" && block.text.trim() !== "") lines.push(clip(block.text.trim()));
      if (block.type === "tool_use" && typeof block.name === "string") lines.push(`[tool] ${block.name}`);
    }
    return lines;
  }
  if (event.type === "result") {
    const turns = typeof event.num_turns === "number" ? `, ${event.num_turns} turn(s)` : "";
    return [`[result] ${String(event.subtype)}${turns}`];
  }
  return [];
}

function clip(text: string): string {
  return text.length > MAX_LINE_CHARS ? `${text.slice(0, MAX_LINE_CHARS)}…` : text;
}

/** The ids of the tool uses an assistant message of the stream announces (Claude Code tags its MCP calls with them). */
export function toolUseIds(event: Record<string, unknown>): string[] {
  if (event.type !== "assistant") return [];
  const content = (event.message as { content?: unknown } | undefined)?.content;
  if (!Array.isArray(content)) return [];
  return (content as { type?: unknown; id?: unknown }[]).flatMap((b) => (b.type === "tool_use" && typeof b.id === "string" ? [b.id] : []));
}
