// executeVSCodeCommand: a VS Code command the user allowed by id (--vscode-allow-command), never
// one on the deny list (vscode-policy.ts). Its result comes back as JSON text.
import * as v from "valibot";
import { ToolError } from "../../errors.ts";
import { tail } from "../../services/terminal/vscode-terminals.ts";
import { defineTool } from "../platform/define-tool.ts";
import { commandDenied } from "./vscode-policy.ts";

/** The most JSON the arguments may take. */
const MAX_ARGS_CHARS = 32_768;

export default defineTool({
  name: "executeVSCodeCommand",
  title: "Run VS Code command",
  description:
    "Runs a VS Code command by id (e.g. editor.action.formatDocument) with JSON arguments; only ids the user allowed with --vscode-allow-command.",
  searchHint: "execute vscode command palette action run editor command",
  input: v.strictObject({
    command: v.pipe(v.string(), v.minLength(1), v.maxLength(200), v.description("Command id (listVSCodeCommands).")),
    args: v.optional(v.pipe(v.array(v.unknown()), v.maxLength(10), v.description("JSON arguments, in order."))),
  }),
  annotations: { readOnlyHint: false, destructiveHint: true },
  extensionProtocol: "1.2.0",
  async viaExtension(input, ctx) {
    const allowed = ctx.settings.vscodeAllowCommands ?? [];
    if (commandDenied(input.command))
      throw new ToolError(
        "command_refused",
        `${input.command} is on the bridge's deny list of VS Code commands (it runs code, types into terminals, changes settings, extensions or trust)`,
        {
          suggestion:
            "Use the bridge's own tools for it (runVSCodeTask, sendTerminalCommand, setWorkspaceSetting), or ask the user to do it in VS Code.",
        },
      );
    if (!allowed.includes(input.command))
      throw new ToolError("command_refused", `${input.command} is not allowed (allowed: ${allowed.join(", ") || "none"})`, {
        suggestion: `Ask the user to restart the bridge with --vscode-allow-command ${input.command} if it should run.`,
      });
    const args = input.args ?? [];
    if (JSON.stringify(args).length > MAX_ARGS_CHARS)
      throw new ToolError("invalid_arguments", `The arguments take more than ${MAX_ARGS_CHARS} characters of JSON`, {
        suggestion: "Pass smaller arguments.",
      });
    const result = await ctx.extension.request("extension/executeCommand", { command: input.command, args }, { signal: ctx.signal });
    if (result.json === undefined) return `Ran ${input.command}; it returned nothing.`;
    const cut = tail(result.json, Math.floor(ctx.settings.maxResultChars * 0.9));
    return `Ran ${input.command}; it returned${result.truncated || cut !== result.json ? " (cut)" : ""}:\n${cut}`;
  },
});
