// waitForTerminalOutput: waits until a line a terminal's commands print matches a pattern ("ready on
// port", "compiled successfully"), or the time is up. The pattern runs on the bridge's linear-time
// regex engine (src/lib/regex), so no pattern can stall the bridge whatever the output. The
// extension holds each request until output arrives (a long poll), so nothing is asked in a loop.
import * as v from "valibot";
import { ToolError } from "../../errors.ts";
import { compileRegex } from "../../lib/regex/index.ts";
import { findTerminal, tail } from "../../services/terminal/vscode-terminals.ts";
import { defineTool } from "../platform/define-tool.ts";

/** One long poll at most: well inside the extension link's per-request timeout. */
const POLL_MS = 5_000;
const CONTEXT_LINES = 10;

export default defineTool({
  name: "waitForTerminalOutput",
  title: "Wait for terminal output",
  description:
    'Waits until a line printed in a VS Code terminal matches a regex (e.g. a dev server\'s "ready on port"), up to a timeout; returns the line and the lines before it.',
  searchHint: "wait for terminal output pattern ready listening port dev server started regex",
  input: v.strictObject({
    terminal: v.pipe(v.string(), v.minLength(1), v.description("Terminal id (listTerminals) or name.")),
    pattern: v.pipe(v.string(), v.minLength(1), v.maxLength(1000), v.description("Regex (ripgrep's dialect) matched per line.")),
    literal: v.optional(v.pipe(v.boolean(), v.description("The pattern is plain text."))),
    caseInsensitive: v.optional(v.pipe(v.boolean(), v.description("Match upper and lower case alike."))),
    since: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(0), v.description("Only output after this offset (default: all the terminal kept).")),
    ),
    timeoutMs: v.optional(v.pipe(v.number(), v.integer(), v.minValue(100), v.maxValue(600_000), v.description("Default 30000."))),
  }),
  annotations: { readOnlyHint: true },
  timeoutMs: 610_000,
  extensionProtocol: "1.2.0",
  async viaExtension(input, ctx) {
    const regex = compileRegex(input.pattern, { literal: input.literal === true, caseInsensitive: input.caseInsensitive === true });
    const terminal = await findTerminal(ctx, input.terminal);
    const timeoutMs = input.timeoutMs ?? 30_000;
    const deadline = Date.now() + timeoutMs;
    let since = input.since;
    let partial = "";
    const seen: string[] = [];
    for (;;) {
      const waitMs = Math.max(0, Math.min(POLL_MS, deadline - Date.now()));
      const out = await ctx.extension.request(
        "extension/terminalOutput",
        { id: terminal.id, ...(since === undefined ? {} : { since }), waitMs },
        { signal: ctx.signal },
      );
      since = out.next;
      const lines = (partial + out.text).split("\n");
      partial = lines.pop() ?? "";
      // A prompt or progress line without its newline yet is tested too, and kept for the next read.
      const candidates = [...lines, partial];
      for (const [i, line] of candidates.entries()) {
        if (regex.test(line)) {
          const before = seen.slice(-CONTEXT_LINES);
          return [
            `Matched in terminal ${terminal.id} "${terminal.name}" (read up to offset ${out.next}):`,
            line,
            ...(before.length > 0 ? ["", "--- the lines before ---", ...before] : []),
          ].join("\n");
        }
        if (i < lines.length) seen.push(line);
      }
      if (seen.length > 1000) seen.splice(0, seen.length - CONTEXT_LINES);
      if (out.exited || Date.now() >= deadline) {
        const last = tail([...seen.slice(-20), partial].join("\n").trim(), 4000);
        const why = out.exited ? "the terminal exited" : `nothing matched within ${timeoutMs} ms`;
        throw new ToolError(
          out.exited ? "tool_failed" : "timeout",
          `${why} (/${input.pattern}/ in terminal ${terminal.id}); last output:\n${last || "(none)"}`,
          {
            suggestion: out.shellIntegration
              ? `Call again with since ${out.next} to go on waiting, or check the output with getTerminalOutput.`
              : "This terminal's shell has no shell integration, so its output cannot be read: run the command in a terminal made with createTerminal.",
          },
        );
      }
    }
  },
});
