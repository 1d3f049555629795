// Runtime.spawn and Runtime.which on Bun's native Bun.spawn and Bun.which (faster than
// node:child_process under Bun). Never a shell, as on Node (runtime/shared/spawn.ts).
import type { Child, SpawnOptions } from "../../src/ports/spawn.ts";
import { nodeSpawn } from "../shared/spawn.ts";
import { groupAwareKill } from "../shared/process-groups.ts";
import { abortedChild, failedChild } from "../shared/spawn-failed.ts";

export function bunSpawn(cmd: string, args: string[], opts: SpawnOptions): Child {
  // Bun.spawn has `detached` (setsid), but its piped stdout keeps the process alive even after
  // unref(), and its stdin FileSink accepts writes to a dead child without an error (Bun 1.4).
  // Bun's node:child_process does both as Node does, so those children go through it.
  if (opts.processGroup === true || opts.stdin === "pipe") return nodeSpawn(cmd, args, opts);
  if (opts.signal?.aborted === true) return abortedChild(false);
  let proc: Bun.Subprocess<"ignore" | Uint8Array, "pipe", "pipe">;
  try {
    proc = Bun.spawn([cmd, ...args], {
      cwd: opts.cwd,
      // Like Node's: a given env is the child's whole environment.
      ...(opts.env === undefined ? {} : { env: opts.env }),
      // Bun writes a buffer to stdin and closes it; "ignore" is an stdin already at end of file.
      stdin: opts.stdin === undefined ? "ignore" : typeof opts.stdin === "string" ? new TextEncoder().encode(opts.stdin) : opts.stdin,
      stdout: "pipe",
      stderr: "pipe",
      ...(opts.signal === undefined ? {} : { signal: opts.signal, killSignal: "SIGTERM" }),
    });
  } catch (err) {
    // Bun throws at once for a missing command or cwd; Node reports it through `exited`.
    return failedChild(err, { cmd, cwd: opts.cwd, pipe: false });
  }
  return {
    pid: proc.pid,
    stdin: undefined,
    stdout: proc.stdout,
    stderr: proc.stderr,
    // Bun resolves with 128 + signal number for a signal death, as the interface asks.
    exited: proc.exited,
    kill: groupAwareKill((signal) => proc.kill(signal), { pid: proc.pid, processGroup: false }),
  };
}

/** The first executable regular file named `cmd` on the runtime's PATH (or `cmd` itself when it has a slash). */
export async function bunWhich(cmd: string, env: Readonly<Record<string, string | undefined>>): Promise<string | undefined> {
  if (cmd === "") return undefined;
  return Bun.which(cmd, { PATH: env.PATH ?? env.Path ?? "" }) ?? undefined;
}
