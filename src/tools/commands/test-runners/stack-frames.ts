// A failure's stack trimmed to the project's own frames: the frames of node_modules, Node's
// internals and Python's site-packages say how the runner called the test, not what broke, and
// were most of runTests' answer (13 vitest failures: about ten such frames each). What is left
// out is counted, so the model knows the trace was cut and not short.

/** A V8 frame ("    at f (/ws/a.ts:1:2)") or a Python one ('  File "/x.py", line 3, in f'). */
const FRAME = /^\s*(?:at\s|File\s+")/;

/** Where a frame is not the project's: dependencies, the runtime, the runner. */
const FOREIGN = /\/node_modules\/|[\s(]node:|\(internal\/|\(native\)|<anonymous>|\/site-packages\/|\/dist-packages\/|\/lib\/python\d/;

/** The text with the frames that are not the project's left out and counted on one line. */
export function ownFrames(text: string): string {
  const lines = text.split(/\r?\n/);
  const out: string[] = [];
  let left = 0;
  let indent = "    ";
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    if (!FRAME.test(line) || !FOREIGN.test(line)) {
      out.push(line);
      continue;
    }
    left++;
    indent = /^\s*/.exec(line)?.[0] ?? indent;
    // A Python frame's source line follows it, indented deeper: it goes with the frame.
    const next = lines[i + 1];
    if (line.trimStart().startsWith("File ") && next !== undefined && !FRAME.test(next) && next.startsWith(`${indent}  `)) i++;
  }
  if (left === 0) return text;
  // The note goes after the last frame kept (or the message), before any text that follows the trace.
  let at = out.length;
  while (at > 0 && (out[at - 1] ?? "").trim() === "") at--;
  out.splice(at, 0, `${indent}(${left} frame${left === 1 ? "" : "s"} of dependencies and runtime internals left out)`);
  return out.join("\n");
}

/** Absolute paths of the workspace in a message made relative to it. */
export function relativeFrames(text: string, root: string): string {
  const prefix = root.endsWith("/") ? root : `${root}/`;
  return text.split(`file://${prefix}`).join("").split(prefix).join("");
}
