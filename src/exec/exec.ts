// ctx.exec: how a tool runs a program (git, rg, a test runner). Never a shell: the executable is
// found on PATH and gets its arguments as an array, so nothing in them is interpreted. A tool may
// run only the executables it declared (`requires.probes`), in a workspace directory, with the
// bridge's secrets removed from the environment; its whole process tree is killed when the call is
// cancelled or times out, and output is capped with a marker.
import type { Runtime } from "../runtime.ts";
import { ToolError, errorMessage, fsErrorCode } from "../errors.ts";
import type { WorkspaceFs } from "../workspace/workspace-fs.ts";
import { collectOutput, type CollectedOutput } from "./collect-output.ts";
import { childEnvironment } from "./child-env.ts";

export const DEFAULT_MAX_OUTPUT_BYTES = 1024 * 1024;

export interface RunOptions {
  args: readonly string[];
  /** Directory to run in, as a workspace path (default: the workspace root). */
  cwd?: string;
  /** Written to stdin, which is then closed (stdin is closed at once without it). */
  stdin?: string;
  /** Added to the child's environment (the bridge's, minus its secrets). */
  env?: Readonly<Record<string, string>>;
  /** Kills the process tree after this long (the call's own cancellation applies anyway). */
  timeoutMs?: number;
  /** Per stream; what comes after is dropped and marked (default 1 MiB). */
  maxOutputBytes?: number;
  /** Each chunk of output as it arrives (for progress with the latest lines). */
  onOutput?(stream: "stdout" | "stderr", text: string): void;
}

export interface RunResult extends CollectedOutput {
  exitCode: number;
  durationMs: number;
  /** Killed by `timeoutMs`. */
  timedOut: boolean;
}

export interface Exec {
  run(command: string, opts: RunOptions): Promise<RunResult>;
}

export interface ExecDeps {
  runtime: Pick<Runtime, "spawn" | "which" | "env">;
  fs: WorkspaceFs;
}

/** The Exec of one call: `allowed` are the executables its tool declared, `signal` the call's. */
export function createExec(deps: ExecDeps, allowed: readonly string[], signal: AbortSignal): Exec {
  return {
    async run(command, opts) {
      if (!allowed.includes(command)) {
        throw new ToolError("internal_error", `This tool may not run \`${command}\` (it declares ${allowed.length > 0 ? allowed.join(", ") : "no executables"})`, {
          suggestion: "This is a bridge bug: the tool must list the executable in requires.probes.",
        });
      }
      const path = await deps.runtime.which(command);
      if (path === undefined) {
        throw new ToolError("probe_missing", `\`${command}\` is not on the bridge's PATH`, { suggestion: `Install ${command}, make sure the bridge's PATH has it, and restart the bridge.` });
      }
      const cwd = await deps.fs.resolve(opts.cwd ?? ".");
      if (!(await deps.fs.stat(cwd)).isDirectory) {
        throw new ToolError("not_a_directory", `${opts.cwd ?? "."} is not a directory`, { suggestion: "Run it in a directory of the workspace." });
      }
      return runResolved(deps.runtime, path, cwd, opts, signal);
    },
  };
}

async function runResolved(runtime: ExecDeps["runtime"], path: string, cwd: string, opts: RunOptions, signal: AbortSignal): Promise<RunResult> {
  const timeout = opts.timeoutMs === undefined ? undefined : AbortSignal.timeout(opts.timeoutMs);
  const started = performance.now();
  const child = runtime.spawn(path, [...opts.args], {
    cwd,
    env: childEnvironment(runtime.env, opts.env),
    ...(opts.stdin === undefined ? {} : { stdin: opts.stdin }),
    processGroup: true,
    signal: timeout === undefined ? signal : AbortSignal.any([signal, timeout]),
  });
  const output = collectOutput(child, opts.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES, opts.onOutput);
  let exitCode: number;
  try {
    exitCode = await child.exited;
  } catch (err) {
    throw new ToolError(fsErrorCode(err) === "EACCES" ? "permission_denied" : "internal_error", `Could not run ${path}: ${errorMessage(err)}`, {
      suggestion: "Check that the executable works from a terminal.",
      cause: err,
    });
  }
  return { exitCode, ...(await output), durationMs: Math.round(performance.now() - started), timedOut: timeout?.aborted === true && !signal.aborted };
}
