// `go test -json`: one JSON event per line (test2json). A test's pass/fail/skip is its final
// action; its output lines carry the "file_test.go:12: message" of t.Errorf and friends.
import { jsonLines } from "../../../services/diagnostics/parsers/json-lines.ts";
import { shortMessage, type ParsedRun, type TestFailure } from "./test-run.ts";

export async function parseGoTestJson(stdout: string): Promise<ParsedRun> {
  const output = new Map<string, string[]>();
  const final = new Map<string, { action: string; pkg: string; test: string }>();
  let events = 0;
  for (const event of await jsonLines(stdout)) {
    if (typeof event.Test !== "string") continue;
    events++;
    const key = `${String(event.Package)} ${event.Test}`;
    if (event.Action === "output") {
      const lines = output.get(key) ?? [];
      if (lines.length === 0) output.set(key, lines);
      lines.push(String(event.Output ?? ""));
    }
    if (event.Action === "pass" || event.Action === "fail" || event.Action === "skip")
      final.set(key, { action: event.Action, pkg: String(event.Package), test: event.Test });
  }
  if (events === 0) return { passed: 0, failed: 0, skipped: 0, failures: [], unreadable: true };
  const all = [...final.entries()];
  // A parent whose subtests failed fails too; its own output is only the subtests' summary.
  const parents = new Set<string>();
  for (const [, t] of all) {
    const parts = t.test.split("/");
    for (let n = 1; n < parts.length; n++) parents.add(`${t.pkg} ${parts.slice(0, n).join("/")}`);
  }
  const leaves = all.filter(([key]) => !parents.has(key));
  const failures = leaves.filter(([, t]) => t.action === "fail").map(([key, t]) => failureOf(t, output.get(key) ?? []));
  const count = (action: string) => leaves.filter(([, t]) => t.action === action).length;
  return { passed: count("pass"), failed: count("fail"), skipped: count("skip"), failures };
}

function failureOf(t: { pkg: string; test: string }, lines: readonly string[]): TestFailure {
  const useful = lines.filter((l) => !/^=== (RUN|PAUSE|CONT)|^--- (FAIL|PASS|SKIP)/.test(l.trim()));
  const at = useful.map((l) => /^\s+([\w./-]+_test\.go):(\d+): /.exec(l)).find((m) => m !== null);
  const failure: TestFailure = { test: `${t.pkg}.${t.test}`, message: shortMessage(useful.join("").trim() || "failed") };
  if (at) {
    failure.file = `${t.pkg.split("/").slice(-1)[0] ?? ""}/${at[1]}`;
    failure.line = Number(at[2]);
  }
  return failure;
}
