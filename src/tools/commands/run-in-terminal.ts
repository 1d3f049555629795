// runInTerminal: the original's terminal command. Headless it takes the same path as runCommand
// (one guarded spawn, waited for, exit code and output returned). With VS Code connected it runs in
// a VS Code terminal the user sees (the one named, or a new "Claude" one), after the same checks,
// with exit code and output through shell integration. A command never runs twice: the original
// ran it in a terminal and then again as a fallback subprocess (seed CHANGELOG); here the route
// picks one handler per call, and a terminal without shell integration is said so, not retried.
import * as v from "valibot";
import { createTerminal, findTerminal, formatTerminalRun, runInTerminal } from "../../services/terminal/vscode-terminals.ts";
import { ToolError } from "../../errors.ts";
import { defineTool } from "../platform/define-tool.ts";
import { MAX_COMMAND_MS, PLAIN_WORDS, commandFields, runUserCommand } from "./user-command.ts";

export default defineTool({
  name: "runInTerminal",
  title: "Run in terminal",
  description:
    "Runs an allowlisted command once and returns exit code and output (no shell): in a VS Code terminal the user sees when VS Code is connected, else like runCommand.",
  searchHint: "terminal run command wait output exit code integrated terminal shell",
  input: v.strictObject({
    ...commandFields,
    name: v.optional(v.pipe(v.string(), v.maxLength(100), v.description("Terminal to reuse (VS Code extension only)."))),
  }),
  annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
  timeoutMs: MAX_COMMAND_MS,
  largeResult: true,
  handler: (input, ctx) => runUserCommand(input, ctx),
  extensionProtocol: "1.2.0",
  async viaExtension(input, ctx) {
    let command = input.command.trim();
    let args = input.args ?? [];
    if (input.args === undefined && /[ \t]/.test(command) && PLAIN_WORDS.test(command)) [command = "", ...args] = command.split(/[ \t]+/);
    // Checked before any terminal is made, so a refused command leaves nothing behind.
    await ctx.exec.vetAllowed(command, { args, ...(input.cwd === undefined ? {} : { cwd: input.cwd }) });
    const name = input.name ?? "Claude";
    const terminal = await findTerminal(ctx, name).catch(async (err: unknown) => {
      if (!(err instanceof ToolError) || err.code !== "terminal_not_found") throw err;
      const cwd = await ctx.fs.resolve(input.cwd ?? ".", { mustExist: true });
      return createTerminal(ctx, { name, cwd, show: true });
    });
    const run = await runInTerminal(ctx, terminal, {
      command,
      args,
      ...(input.cwd === undefined ? {} : { cwd: input.cwd }),
      waitMs: input.timeoutMs ?? ctx.settings.timeoutMs,
    });
    return formatTerminalRun(run, Math.floor(ctx.settings.maxResultChars * 0.9));
  },
});
