// sendTerminalCommand: an allowlisted command in a VS Code terminal, with runCommand's checks. With
// shell integration it runs as a command (exit code, output); without, it is typed as text and the
// answer says there is nothing to read. A command still running at the wait's end (a dev server)
// keeps running; its output is read later with getTerminalOutput or waitForTerminalOutput.
import * as v from "valibot";
import { findTerminal, formatTerminalRun, runInTerminal } from "../../services/terminal/vscode-terminals.ts";
import { defineTool } from "../platform/define-tool.ts";

export default defineTool({
  name: "sendTerminalCommand",
  title: "Send terminal command",
  description:
    "Runs an allowlisted command in a VS Code terminal (runCommand's rules, no shell syntax); returns exit code and output, or that it is still running.",
  searchHint: "send command terminal run in terminal shell integration exit code dev server",
  input: v.strictObject({
    terminal: v.pipe(v.string(), v.minLength(1), v.description("Terminal id (listTerminals) or name.")),
    command: v.pipe(v.string(), v.minLength(1), v.maxLength(4096), v.description('Allowlisted program, e.g. "npm".')),
    args: v.optional(v.pipe(v.array(v.pipe(v.string(), v.maxLength(32_768))), v.maxLength(1000), v.description('e.g. ["run", "dev"].'))),
    cwd: v.optional(v.pipe(v.string(), v.description("Workspace-relative; the terminal changes into it first."))),
    waitMs: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(0),
        v.maxValue(600_000),
        v.description("Wait this long for it to end (default 30000; 0: do not wait)."),
      ),
    ),
  }),
  annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
  timeoutMs: 620_000,
  largeResult: true,
  extensionProtocol: "1.2.0",
  async viaExtension(input, ctx) {
    const terminal = await findTerminal(ctx, input.terminal);
    const run = await runInTerminal(ctx, terminal, {
      command: input.command,
      args: input.args ?? [],
      ...(input.cwd === undefined ? {} : { cwd: input.cwd }),
      waitMs: input.waitMs ?? 30_000,
    });
    return formatTerminalRun(run, Math.floor(ctx.settings.maxResultChars * 0.9));
  },
});
