// The frames of a failing test's output, whatever printed it: V8 stacks (`at fn (file:12:5)`,
// vitest's and jest's `❯ file:12:5`), Python tracebacks (`File "x.py", line 12, in fn`), Go's
// panics and t.Errorf lines (`x_test.go:12:` and `\tfile.go:12 +0x1d`) and C's `file.c:12:5:`.
// Only positions are taken; which of them are the project's own code is decided by the caller.

export interface StackFrame {
  /** As printed: absolute, relative, or a file:// URL. */
  file: string;
  /** 1-based. */
  line: number;
  /** 1-based, when printed. */
  column?: number;
  /** The function, when printed. */
  fn?: string;
}

const FRAME_PATTERNS: readonly RegExp[] = [
  // V8: "    at fn (file:1:2)", "    at file:1:2", "    at async fn (file:1:2)"
  /^\s*at\s+(?:async\s+)?(?:(?<fn>[^\s(][^(]*?)\s+\()?(?<file>(?:file:\/\/)?[^\s()]+?):(?<line>\d+):(?<column>\d+)\)?\s*$/,
  // vitest / jest code frames: " ❯ src/x.test.ts:12:5", " ❯ fn src/x.ts:3:9"
  /^\s*[❯›>]\s+(?:(?<fn>\S+)\s+)?(?<file>[^\s:]+\.\w+):(?<line>\d+):(?<column>\d+)\s*$/,
  // Python: '  File "/x/y.py", line 12, in fn'
  /^\s*File\s+"(?<file>[^"]+)",\s+line\s+(?<line>\d+)(?:,\s+in\s+(?<fn>\S+))?/,
  // Go panic frames: "\t/x/y.go:12 +0x1d"
  /^\s+(?<file>\S+\.go):(?<line>\d+)(?:\s+\+0x[0-9a-f]+)?\s*$/,
  // Go test failures and compiler-style messages: "    x_test.go:12: message", "src/a.c:3:5: error"
  /^\s*(?<file>[\w./\\-]+\.(?:go|c|h|cc|cpp|hpp|rs|py|[cm]?[jt]sx?)):(?<line>\d+)(?::(?<column>\d+))?:\s/,
];

/** The frames of `text`, in the order printed, each position once. */
export function stackFrames(text: string): StackFrame[] {
  const out: StackFrame[] = [];
  const seen = new Set<string>();
  for (const raw of text.split(/\r?\n/)) {
    for (const pattern of FRAME_PATTERNS) {
      const groups = pattern.exec(raw)?.groups;
      if (groups?.file === undefined || groups.line === undefined) continue;
      const frame: StackFrame = { file: groups.file, line: Number(groups.line) };
      if (groups.column !== undefined) frame.column = Number(groups.column);
      const fn = groups.fn?.trim();
      if (fn !== undefined && fn !== "" && fn !== "<module>") frame.fn = fn;
      const key = `${frame.file}:${frame.line}:${frame.column ?? ""}`;
      if (!seen.has(key)) {
        seen.add(key);
        out.push(frame);
      }
      break;
    }
  }
  return out;
}

/** The first lines that say what failed (an Error's message, an assertion, a panic), for the answer's head. */
export function failureMessage(text: string): string | undefined {
  const line = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .find((l) => /^(?:\w*(?:Error|Exception)\b|AssertionError|panic:|FAIL\b|E\s{2,})|(?:Error|Exception|assert\w*):/.test(l));
  return line === undefined ? undefined : line.length > 300 ? `${line.slice(0, 300)}…` : line;
}
