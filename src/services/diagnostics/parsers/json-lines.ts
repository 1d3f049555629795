// Tools that print one JSON object per line (cargo --message-format=json, go test -json) mix in
// other lines now and then (a build's plain-text error): the objects, skipping anything else.
import { forEachLine } from "../../../lib/text/each-line.ts";
import { isRecord } from "../project-facts.ts";

export async function jsonLines(text: string): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  await forEachLine(text, (line) => {
    if (!line.startsWith("{")) return;
    try {
      const value: unknown = JSON.parse(line);
      if (isRecord(value)) out.push(value);
    } catch {
      // Not an object after all: a line of plain output.
    }
  });
  return out;
}
