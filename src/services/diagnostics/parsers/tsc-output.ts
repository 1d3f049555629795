// tsc --pretty false: "src/a.ts(3,7): error TS2322: Type 'x' is not assignable...", with indented
// continuation lines (related information) that belong to the message before them.
import type { Diagnostic } from "../diagnostic.ts";
import { relativeTo } from "./paths.ts";

const LINE = /^(.+?)\((\d+),(\d+)\): (error|warning|message) TS(\d+): (.*)$/;

export function parseTscOutput(stdout: string, root: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const line of stdout.split(/\r?\n/)) {
    const m = LINE.exec(line);
    if (m !== null) {
      out.push({
        file: relativeTo(root, m[1] ?? ""),
        line: Number(m[2]),
        column: Number(m[3]),
        severity: m[4] === "message" ? "info" : m[4] === "warning" ? "warning" : "error",
        code: `TS${m[5]}`,
        message: m[6] ?? "",
        source: "tsc",
      });
    } else if (/^\s+\S/.test(line) && out.length > 0) {
      const last = out[out.length - 1];
      if (last !== undefined) last.message += `\n${line.trim()}`;
    }
  }
  return out;
}
