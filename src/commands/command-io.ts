// What a CLI command (init, status, print-token, gen-mcp-config) gets besides the Runtime: where
// to write, and how to run this program again (for the configs it writes). Runtime-agnostic.
import type { Runtime } from "../runtime.ts";

export interface CommandContext {
  runtime: Runtime;
  /** stdout: the command's result (a token, JSON, a config snippet). */
  out(text: string): void;
  /** stderr: reports, warnings, errors. */
  err(text: string): void;
  /** How MCP clients should start this program: `command args… shim`. */
  self: { command: string; args: string[] };
}

export type CommandMain = (ctx: CommandContext, args: string[]) => Promise<number>;
