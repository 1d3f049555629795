// Runtime.spawn on Deno's native Deno.Command (web streams without node:stream adapters).
// Never a shell, as on Node (runtime/node-spawn.ts).
import { abortedChild, failedChild } from "./spawn-failed.ts";
import type { Child, SpawnOptions } from "../src/runtime.ts";

export function denoSpawn(cmd: string, args: string[], opts: SpawnOptions): Child {
  if (opts.signal?.aborted === true) return abortedChild();
  let proc: Deno.ChildProcess;
  try {
    proc = new Deno.Command(cmd, {
      args,
      cwd: opts.cwd,
      // Like Node's: a given env is the child's whole environment, not additions to ours.
      ...(opts.env === undefined ? {} : { env: opts.env, clearEnv: true }),
      stdin: opts.stdin === undefined ? "null" : "piped",
      stdout: "piped",
      stderr: "piped",
      // Deno sends SIGTERM on abort, as runtime/node-spawn.ts does.
      ...(opts.signal === undefined ? {} : { signal: opts.signal }),
    }).spawn();
  } catch (err) {
    // Deno throws at once for a missing command or cwd (err.code "ENOENT"); Node reports it through `exited`.
    return failedChild(err);
  }
  if (opts.stdin !== undefined) {
    const data = typeof opts.stdin === "string" ? new TextEncoder().encode(opts.stdin) : opts.stdin;
    const writer = proc.stdin.getWriter();
    // A child that exits without reading its stdin makes the write fail; that is not ours to report.
    writer.write(data).then(() => writer.close()).catch(() => {});
  }
  return {
    pid: proc.pid,
    stdout: proc.stdout,
    stderr: proc.stderr,
    // Deno reports a signal death as 128 + signal number already.
    exited: proc.status.then((status) => status.code),
    kill: (signal = "SIGTERM") => {
      try {
        proc.kill(signal);
      } catch {
        // Already exited: Deno throws where Node does nothing.
      }
    },
  };
}
