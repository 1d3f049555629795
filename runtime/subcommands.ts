// Subcommands of `claude-ide-bridge <name> ...`. Each loads lazily so that the bridge's own
// start-up (and the shim's) pays only for what it runs.
import type { CliHost } from "./cli.ts";

/** Runs a subcommand; resolves with an exit code, or undefined to keep the process running. */
export type SubcommandMain = (host: CliHost, args: string[]) => Promise<number | undefined>;

export interface Subcommand {
  name: string;
  summary: string;
  load(): Promise<SubcommandMain>;
}

const SUBCOMMANDS: readonly Subcommand[] = [];

export function findSubcommand(name: string | undefined): Subcommand | undefined {
  return name === undefined ? undefined : SUBCOMMANDS.find((s) => s.name === name);
}

export function listSubcommands(): readonly Subcommand[] {
  return SUBCOMMANDS;
}
