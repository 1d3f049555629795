// The commands toolset: running things on the user's behalf, each through one guarded path:
// programs through the allowlist (ctx.exec.runAllowed), test runners through tool-built argv
// (ctx.exec.runToolchain), HTTP through the SSRF defence (ctx.http).
import { defineToolset } from "../platform/toolset.ts";
import getCodeCoverage from "./get-code-coverage.ts";
import parseHttpFile from "./parse-http-file.ts";
import runCommand from "./run-command.ts";
import runInTerminal from "./run-in-terminal.ts";
import runTests from "./run-tests.ts";
import sendHttpRequest from "./send-http-request.ts";

export const commandsToolset = defineToolset({
  name: "commands",
  purpose: "allowlisted commands (no shell), tests with parsed results, coverage, HTTP requests",
  tools: [runCommand, runInTerminal, runTests, getCodeCoverage, sendHttpRequest, parseHttpFile],
});
