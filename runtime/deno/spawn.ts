// Runtime.spawn on Deno's native Deno.Command (web streams without node:stream adapters).
// Never a shell, as on Node (runtime/shared/spawn.ts).
import type { Child, SpawnOptions } from "../../src/ports/spawn.ts";
import { childStdin, type StdinSink } from "../shared/child-stdin.ts";
import { inOwnPidNamespace } from "../shared/pid-namespace.ts";
import { abortUntilExit, endGroup, groupAwareKill, markTree, trackGroup } from "../shared/process-groups.ts";
import { abortedChild, failedChild } from "../shared/spawn-failed.ts";

export function denoSpawn(cmd: string, args: string[], opts: SpawnOptions): Child {
  const pipe = opts.stdin === "pipe";
  if (opts.signal?.aborted === true) return abortedChild(pipe);
  const processGroup = opts.processGroup === true;
  const run = inOwnPidNamespace(cmd, args, { wanted: processGroup && opts.ownPidNamespace === true });
  // A processGroup child's tree is also found by a marker in its environment (runtime/shared/process-groups.ts),
  // unless a PID namespace of its own holds it.
  const tree = processGroup && opts.groupOnly !== true && !run.namespaced ? markTree(opts.env ?? Deno.env.toObject()) : undefined;
  const env = tree?.env ?? opts.env;
  let proc: Deno.ChildProcess;
  try {
    proc = new Deno.Command(run.cmd, {
      args: run.args,
      cwd: opts.cwd,
      // Like Node's: a given env is the child's whole environment, not additions to ours.
      ...(env === undefined ? {} : { env, clearEnv: true }),
      stdin: opts.stdin === undefined ? "null" : "piped",
      stdout: "piped",
      stderr: "piped",
      // setsid(2) on POSIX, as Node's `detached`.
      detached: processGroup,
      // Deno's abort sends SIGTERM to the child alone, as runtime/shared/spawn.ts does; a group's is ours.
      ...(opts.signal === undefined || processGroup ? {} : { signal: opts.signal }),
    }).spawn();
  } catch (err) {
    // Deno throws at once for a missing command or cwd (err.code "ENOENT"); Node reports it through `exited`.
    return failedChild(err, { cmd, cwd: opts.cwd, pipe });
  }
  let stdin: WritableStream<Uint8Array> | undefined;
  if (pipe) stdin = childStdin(writerSink(proc.stdin.getWriter()));
  else if (opts.stdin !== undefined) {
    const data = typeof opts.stdin === "string" ? new TextEncoder().encode(opts.stdin) : opts.stdin;
    const writer = proc.stdin.getWriter();
    // A child that exits without reading its stdin makes the write fail; that is not ours to report.
    writer
      .write(data)
      .then(() => writer.close())
      .catch(() => {});
  }
  // Deno reports a signal death as 128 + signal number already.
  const exited = proc.status.then((status) => status.code);
  if (processGroup) {
    trackGroup(proc.pid, exited);
    abortUntilExit(opts.signal, { exited, onAbort: () => endGroup(proc.pid, tree?.marker) });
    // Deno's piped streams do not hold the event loop once the child is unref'd.
    proc.unref();
  }
  return {
    pid: proc.pid,
    stdin,
    stdout: proc.stdout,
    stderr: proc.stderr,
    exited,
    kill: groupAwareKill(
      (signal) => {
        try {
          proc.kill(signal);
        } catch {
          // Already exited: Deno throws where Node does nothing.
        }
      },
      { pid: proc.pid, processGroup, ...(tree === undefined ? {} : { marker: tree.marker }) },
    ),
  };
}

function writerSink(writer: WritableStreamDefaultWriter<Uint8Array>): StdinSink {
  return { write: (chunk) => writer.write(chunk), close: () => writer.close(), abort: () => void writer.abort().catch(() => {}) };
}
