// runCommand: runs one allowlisted program with arguments, no shell, through ctx.exec.runAllowed
// (src/security/commands/command-policy.ts says what is refused and why). The description says what
// the refusals cannot: `npm test`, `cargo build` or `go generate` run code the project holds (its
// scripts, build scripts, tests), which whoever can write the workspace has written.
import * as v from "valibot";
import { defineTool } from "../platform/define-tool.ts";
import { MAX_COMMAND_MS, commandFields, runUserCommand } from "./user-command.ts";

export default defineTool({
  name: "runCommand",
  title: "Run command",
  description:
    "Runs an allowlisted program (git, npm, cargo, go, pytest, vitest, tsc, eslint...), no shell, in the workspace; returns exit code, duration and output. Scripts, builds and tests run the project's code.",
  searchHint: "run a command in a shell: build the project, npm script, make, cargo, go, exec; output and exit code",
  input: v.strictObject(commandFields),
  annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
  timeoutMs: MAX_COMMAND_MS,
  largeResult: true,
  handler: (input, ctx) => runUserCommand(input, ctx),
});
