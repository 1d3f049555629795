// runInTerminal: the original's terminal command, headless. It takes the same path as runCommand
// (one guarded spawn, waited for, exit code and output returned), so a command never runs twice:
// the original ran it in a terminal and then again as a fallback subprocess (seed CHANGELOG). A
// viaExtension handler, once there is one, runs it in a VS Code terminal instead; the dispatcher
// picks exactly one of the two per call.
import * as v from "valibot";
import { defineTool } from "../platform/define-tool.ts";
import { MAX_COMMAND_MS, commandFields, runUserCommand } from "./user-command.ts";

export default defineTool({
  name: "runInTerminal",
  title: "Run in terminal",
  description:
    "Runs an allowlisted command as in a terminal, once, and returns exit code and output, exactly like runCommand (no shell). Scripts, builds and tests run the project's own code.",
  searchHint: "terminal run command wait output exit code integrated terminal shell",
  input: v.strictObject({
    ...commandFields,
    name: v.optional(v.pipe(v.string(), v.maxLength(100), v.description("Terminal to reuse (VS Code extension only)."))),
  }),
  annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
  timeoutMs: MAX_COMMAND_MS,
  largeResult: true,
  handler: (input, ctx) => runUserCommand(input, ctx),
});
