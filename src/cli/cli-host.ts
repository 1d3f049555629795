// What the command line runs on: the Runtime, the process's shutdown and its stdout. Each runtime's
// entry builds one (runtime/cli/cli.ts runs it); the shim takes its own narrow slice of it.
import type { Runtime } from "../ports/runtime.ts";

export interface CliHost {
  runtime: Runtime;
  /** Runs the shutdown handlers registered so far, then exits. */
  shutdown(exitCode: number): Promise<never>;
  writeStdout(text: string): void;
}
