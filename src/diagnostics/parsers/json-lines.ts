// Tools that print one JSON object per line (cargo --message-format=json, go test -json) mix in
// other lines now and then (a build's plain-text error): the objects, skipping anything else.
import { isRecord } from "../project-facts.ts";

export function jsonLines(text: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const line of text.split("\n")) {
    if (!line.startsWith("{")) continue;
    try {
      const value: unknown = JSON.parse(line);
      if (isRecord(value)) out.push(value);
    } catch {
      // Not an object after all: a line of plain output.
    }
  }
  return out;
}
