// What a CLI command (init, status, print-token, gen-mcp-config) gets besides the Runtime: where
// to write, and how to run this program again (for the configs it writes). Runtime-agnostic.
import type { Runtime } from "../ports/runtime.ts";

export interface CommandContext {
  runtime: Runtime;
  /** stdout: the command's result (a token, JSON, a config snippet). */
  out(text: string): void;
  /** stderr: reports, warnings, errors. */
  err(text: string): void;
  /** How MCP clients should start this program: `command args… shim` (self-invocation.ts). */
  self: { command: string; args: string[] };
  /** The version of the runtime this runs on (Node's, Bun's or Deno's), for doctor. */
  runtimeVersion: string;
  /** kill(pid, signal): stop's fallback for a bridge that has no /shutdown. */
  signalProcess(pid: number, signal: "SIGTERM"): void;
}

export type CommandMain = (ctx: CommandContext, args: string[]) => Promise<number>;
