// `cargo test`'s libtest output. Its JSON format (--format json) is still unstable (nightly with
// -Z unstable-options), so the stable text is read: "test path::name ... ok|FAILED|ignored" per
// test, then a "---- path::name stdout ----" block per failure with the panic's location.
import { shortMessage, type ParsedRun, type TestFailure } from "./test-run.ts";

const RESULT = /^test (\S+) \.\.\. (ok|FAILED|ignored)\b/;

export function parseCargoTestText(stdout: string): ParsedRun {
  const lines = stdout.split(/\r?\n/);
  let passed = 0;
  let skipped = 0;
  const failed: string[] = [];
  const blocks = new Map<string, string[]>();
  let current: string | undefined;
  for (const line of lines) {
    const result = RESULT.exec(line);
    if (result !== null) {
      if (result[2] === "ok") passed++;
      else if (result[2] === "ignored") skipped++;
      else failed.push(result[1] ?? "");
      continue;
    }
    const header = /^---- (\S+) stdout ----$/.exec(line);
    if (header !== null) {
      current = header[1] ?? "";
      blocks.set(current, []);
      continue;
    }
    if (current !== undefined && (line === "" || line.startsWith("failures:") || line.startsWith("test result:"))) {
      if (line !== "") current = undefined;
      else blocks.get(current)?.push(line);
      continue;
    }
    if (current !== undefined) blocks.get(current)?.push(line);
  }
  const sawSummary = lines.some((l) => l.startsWith("test result:"));
  if (!sawSummary && passed + failed.length + skipped === 0) return { passed: 0, failed: 0, skipped: 0, failures: [], unreadable: true };
  return { passed, failed: failed.length, skipped, failures: failed.map((name) => failureOf(name, blocks.get(name) ?? [])) };
}

function failureOf(test: string, block: readonly string[]): TestFailure {
  const text = block.join("\n").trim();
  const failure: TestFailure = {
    test,
    message: shortMessage(text.replace(/^thread '[^']*' panicked at [^\n]*\n?/, "") || text || "failed"),
  };
  // Rust >= 1.73: "thread 'x' panicked at src/lib.rs:10:5:"; before: "panicked at 'msg', src/lib.rs:10:5".
  const at = /panicked at (?:'[^']*', )?([^\s:]+\.rs):(\d+):\d+/.exec(text);
  if (at !== null) {
    failure.file = at[1] ?? "";
    failure.line = Number(at[2]);
  }
  return failure;
}
