// `node --test --test-reporter=tap`: "ok"/"not ok" lines, nested by indentation for subtests, each
// followed by a YAML block (location, error); a suite that failed only because a subtest did says
// failureType: 'subtestsFailed' and is not counted again. Totals come from the "# pass" lines.
import { relativeTo, shortMessage, type ParsedRun, type TestFailure } from "./test-run.ts";

const RESULT = /^(\s*)(not ok|ok) \d+ - (.*)$/;
/** A "# SKIP" or "# TODO" directive after the name, found apart: a lazy name with an optional
 * `\s+#...` after it takes quadratic time on a name followed by a long run of spaces. */
const DIRECTIVE = /\s#\s*(SKIP|TODO)\b/;

export function parseNodeTap(stdout: string, root: string): ParsedRun {
  const lines = stdout.split(/\r?\n/);
  const failures: TestFailure[] = [];
  const totals: Record<string, number> = {};
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    const total = /^# (pass|fail|skipped|todo|cancelled) (\d+)$/.exec(line);
    if (total !== null) totals[total[1] ?? ""] = Number(total[2]);
    const result = RESULT.exec(line);
    if (result === null || result[2] !== "not ok") continue;
    const yaml = yamlBlock(lines, i + 1);
    if (yaml.failureType === "subtestsFailed") continue;
    const failure: TestFailure = { test: unescapeTap(testName(result[3] ?? "?")), message: shortMessage(yaml.error ?? "failed") };
    const at = /^(.*):(\d+):\d+$/.exec(yaml.location ?? "");
    if (at !== null) {
      failure.file = relativeTo(root, (at[1] ?? "").replace(/^file:\/\//, ""));
      failure.line = Number(at[2]);
    }
    failures.push(failure);
  }
  if (totals.pass === undefined && totals.fail === undefined) return { passed: 0, failed: 0, skipped: 0, failures, unreadable: true };
  return { passed: totals.pass ?? 0, failed: totals.fail ?? 0, skipped: (totals.skipped ?? 0) + (totals.todo ?? 0), failures };
}

/** The flat keys of the YAML block after a result line ("  ---" ... "  ..."), single-quoted values unquoted. */
function yamlBlock(lines: readonly string[], start: number): Record<string, string> {
  const out: Record<string, string> = {};
  const open = /^(\s*)---$/.exec(lines[start] ?? "");
  if (open === null) return out;
  // Keys sit at the indentation of "---"; deeper lines continue the key before them.
  const indent = (open[1] ?? "").length;
  let key: string | undefined;
  for (let i = start + 1; i < lines.length && !/^\s*\.\.\.$/.test(lines[i] ?? ""); i++) {
    const line = lines[i] ?? "";
    // A block never closed ends where the next result or a shallower line starts, so a report of
    // unclosed blocks is not read to its end once per failure.
    if (RESULT.test(line) || (line.trim() !== "" && leadingSpaces(line) < indent)) break;
    const entry = /^(\s*)(\w+):\s?(.*)$/.exec(line);
    if (entry !== null && (entry[1] ?? "").length === indent) {
      key = entry[2] ?? "";
      const value = entry[3] ?? "";
      out[key] = value === "|-" || value === "|" ? "" : value.replace(/^'(.*)'$/, "$1").replace(/''/g, "'");
    } else if (key !== undefined) out[key] = `${out[key] ?? ""}${out[key] ? "\n" : ""}${line.trim()}`;
  }
  return out;
}

function testName(text: string): string {
  const directive = DIRECTIVE.exec(text);
  return (directive === null ? text : text.slice(0, directive.index)).trimEnd();
}

function leadingSpaces(line: string): number {
  return line.length - line.trimStart().length;
}

function unescapeTap(name: string): string {
  return name.replace(/\\#/g, "#").replace(/\\\\/g, "\\");
}
