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

/** A tool use a task's stream announced (before Claude Code runs it), or the result that ended one. */
export type ToolActivity = { kind: "use"; id: string; name: string; input: Record<string, unknown> } | { kind: "result"; id: string };

/**
 * The tool uses an assistant message announces (Claude Code tags its MCP calls with their ids) and the
 * tool results a user message brings back: together, when each of the task's actions ran.
 */
export function toolActivity(event: Record<string, unknown>): ToolActivity[] {
  if (event.type !== "assistant" && event.type !== "user") return [];
  const content = (event.message as { content?: unknown } | undefined)?.content;
  if (!Array.isArray(content)) return [];
  const blocks = content as { type?: unknown; id?: unknown; name?: unknown; input?: unknown; tool_use_id?: unknown }[];
  return blocks.flatMap((b): ToolActivity[] => {
    if (event.type === "assistant" && b.type === "tool_use" && typeof b.id === "string" && typeof b.name === "string") {
      const input = typeof b.input === "object" && b.input !== null && !Array.isArray(b.input) ? (b.input as Record<string, unknown>) : {};
      return [{ kind: "use", id: b.id, name: b.name, input }];
    }
    if (event.type === "user" && b.type === "tool_result" && typeof b.tool_use_id === "string")
      return [{ kind: "result", id: b.tool_use_id }];
    return [];
  });
}
