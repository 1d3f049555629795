// createTerminal: a VS Code terminal the user sees, in a workspace directory, without the user's
// secrets in its environment (the extension removes what looks like one; --pass-env keeps a name).
import * as v from "valibot";
import { ToolError } from "../../errors.ts";
import { createTerminal } from "../../services/terminal/vscode-terminals.ts";
import { defineTool } from "../platform/define-tool.ts";
import { TerminalInfo, terminalInfo } from "./terminal-info.ts";

export default defineTool({
  name: "createTerminal",
  title: "Create terminal",
  description:
    "Creates a VS Code integrated terminal in a workspace directory, with extra environment variables; commands then run in it with sendTerminalCommand.",
  searchHint: "create new terminal open integrated shell vscode dev server",
  input: v.strictObject({
    name: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(100), v.description('Shown in VS Code (default "Claude").'))),
    cwd: v.optional(v.pipe(v.string(), v.description("Workspace-relative directory (default: root)."))),
    env: v.optional(
      v.pipe(
        v.record(v.string(), v.pipe(v.string(), v.maxLength(4096))),
        v.description("Extra variables (PORT, NODE_ENV...); PATH and loader variables are refused."),
      ),
    ),
    show: v.optional(v.pipe(v.boolean(), v.description("Bring the terminal panel up (default true)."))),
  }),
  output: TerminalInfo,
  annotations: { readOnlyHint: false, destructiveHint: false },
  extensionProtocol: "1.2.0",
  async viaExtension(input, ctx) {
    const cwd = await ctx.fs.resolve(input.cwd ?? ".", { mustExist: true });
    if (!(await ctx.fs.stat(cwd)).isDirectory)
      throw new ToolError("not_a_directory", `${input.cwd} is not a directory`, { suggestion: "Give a directory of the workspace." });
    const terminal = await createTerminal(ctx, {
      name: input.name ?? "Claude",
      cwd,
      ...(input.env === undefined ? {} : { env: input.env }),
      ...(input.show === undefined ? {} : { show: input.show }),
    });
    return terminalInfo(terminal);
  },
});
