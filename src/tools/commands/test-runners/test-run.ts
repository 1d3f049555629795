// One shape for every runner's results (runTests' output): counts, the failures with where they
// are, and how to run it again. Runners' parsers (one file each) produce a ParsedRun; runTests adds
// the rest.
import * as v from "valibot";
import { relativeTo } from "../../../services/diagnostics/parsers/paths.ts";

export { relativeTo };
import { isRecord } from "../../../services/diagnostics/project-facts.ts";
import { JsonTextError, parseJsonCooperatively } from "../../../lib/text/cooperative-json.ts";
import { ownFrames } from "./stack-frames.ts";

export const TestFailure = v.object({
  test: v.pipe(v.string(), v.description("Full test name (suite > test).")),
  file: v.optional(v.pipe(v.string(), v.description("Test file, relative to the workspace root."))),
  line: v.optional(v.pipe(v.number(), v.description("1-based line of the failure (or of the test)."))),
  message: v.pipe(v.string(), v.description("The assertion message or error, first lines.")),
});
export type TestFailure = v.InferOutput<typeof TestFailure>;

export const TestRun = v.object({
  runner: v.string(),
  outcome: v.pipe(v.picklist(["pass", "fail", "error"]), v.description('"error": the runner could not run the tests (see output).')),
  passed: v.number(),
  failed: v.number(),
  skipped: v.number(),
  durationMs: v.number(),
  failures: v.array(TestFailure),
  failuresOmitted: v.optional(v.pipe(v.number(), v.description("Further failures not listed."))),
  command: v.pipe(v.string(), v.description("The command line that ran, to reproduce it.")),
  cachedAgoMs: v.optional(
    v.pipe(
      v.number(),
      v.description("Present when this is the result of a run this long ago (cached 30 s; pass rerun: true to run again)."),
    ),
  ),
  output: v.optional(
    v.pipe(v.string(), v.description("The end of the runner's output, when it failed to run or its results could not be read.")),
  ),
});
export type TestRun = v.InferOutput<typeof TestRun>;

/** What a parser reads from a runner's output. */
export interface ParsedRun {
  passed: number;
  failed: number;
  skipped: number;
  failures: TestFailure[];
  /** Nothing machine-readable was found (a crash, a config error). */
  unreadable?: boolean;
}

/** The first lines of a failure message: enough to see what broke, not the whole stack. */
export function shortMessage(text: string, maxLines = 12): string {
  const lines = ownFrames(text.replace(/\x1b\[[0-9;]*m/g, "")).split(/\r?\n/);
  const kept = lines.slice(0, maxLines).join("\n").trim();
  return lines.length > maxLines ? `${kept}\n...` : kept;
}

/** The line of the first stack frame in `file` (absolute or relative), e.g. "at x (/ws/a.test.ts:12:5)". */
export function lineInStack(stack: string, file: string | undefined): number | undefined {
  if (file === undefined) return undefined;
  // Token by token, each read from its end: an unanchored /([^\s()'"]+):(\d+):(\d+)/g retries
  // from every offset of a long token, quadratic in a test's output.
  for (const token of stack.split(/[\s()'"]+/)) {
    const m = /^(.*):(\d+):(\d+)/.exec(token);
    if (m === null) continue;
    const path = (m[1] ?? "").replace(/^file:\/\//, "");
    if (path !== "" && (path === file || path.endsWith(`/${file}`) || file.endsWith(path))) return Number(m[2]);
  }
  return undefined;
}

/** A report file's JSON object, read in turns (it can be megabytes); undefined when it is not one. */
export async function jsonReport(text: string): Promise<Record<string, unknown> | undefined> {
  try {
    const value = await parseJsonCooperatively(text);
    return isRecord(value) ? value : undefined;
  } catch (err) {
    if (err instanceof JsonTextError) return undefined;
    throw err;
  }
}

/** The JSON object a runner printed, found among any other output it mixed in (console logs). */
export function extractJsonObject(text: string): Record<string, unknown> | undefined {
  const whole = tryParse(text.trim());
  if (whole !== undefined) return whole;
  // Lines starting with "{", from the last: a report comes after the tests' own logs. Each is tried
  // with the rest of the output (a pretty-printed report) and alone (a one-line report with output
  // after it). Only so many: output full of lines like `{"a":[` must not be parsed once per line.
  let tries = 0;
  for (let end = text.length; end > 0 && tries < MAX_CANDIDATES; ) {
    const start = text.lastIndexOf("\n", end - 1) + 1;
    if (text.startsWith("{", start)) {
      tries++;
      const line = text.slice(start, end).trim();
      const found =
        (tries <= MAX_REST_TRIES ? tryParse(text.slice(start).trim()) : undefined) ?? (line.endsWith("}") ? tryParse(line) : undefined);
      if (found !== undefined) return found;
    }
    end = start - 1;
  }
  return undefined;
}

const MAX_CANDIDATES = 64;
const MAX_REST_TRIES = 8;

function tryParse(text: string): Record<string, unknown> | undefined {
  if (!text.startsWith("{")) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
