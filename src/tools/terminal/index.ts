// The terminal toolset: VS Code's integrated terminals (create, run commands with exit codes, read
// and wait on output, close). Every tool needs the VS Code extension: without it, runCommand runs
// a command headless.
import { defineToolset } from "../platform/toolset.ts";
import createTerminal from "./create-terminal.ts";
import disposeTerminal from "./dispose-terminal.ts";
import getTerminalOutput from "./get-terminal-output.ts";
import listTerminals from "./list-terminals.ts";
import sendTerminalCommand from "./send-terminal-command.ts";
import waitForTerminalOutput from "./wait-for-terminal-output.ts";

export const terminalToolset = defineToolset({
  name: "terminal",
  purpose: "VS Code terminals: run commands, wait for output, dev servers",
  tools: [createTerminal, listTerminals, sendTerminalCommand, getTerminalOutput, waitForTerminalOutput, disposeTerminal],
});
