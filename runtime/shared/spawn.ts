// Runtime.spawn and Runtime.which on node:child_process. Never a shell: arguments reach the program
// as given, so nothing in them can be interpreted (DESIGN.md, "Security in one place each").
import { spawn, type ChildProcess } from "node:child_process";
import { constants as fsConstants } from "node:fs";
import { access, stat } from "node:fs/promises";
import { constants as osConstants } from "node:os";
import { delimiter, join } from "node:path";
import { Readable } from "node:stream";
import type { Child, SpawnOptions } from "../../src/ports/spawn.ts";
import { childStdin, nodeStdinSink } from "./child-stdin.ts";
import { toRuntimeError } from "./errors.ts";
import { inOwnPidNamespace } from "./pid-namespace.ts";
import { abortUntilExit, endGroup, groupAwareKill, markTree, trackGroup } from "./process-groups.ts";
import { abortedChild, failedChild, failingChild, type SpawnAttempt } from "./spawn-failed.ts";

/** Also Bun's spawn for what Bun.spawn cannot do (runtime/bun/spawn.ts). */
export function nodeSpawn(cmd: string, args: string[], opts: SpawnOptions): Child {
  const attempt: SpawnAttempt = { cmd, cwd: opts.cwd, pipe: opts.stdin === "pipe" };
  if (opts.signal?.aborted === true) return abortedChild(attempt.pipe);
  const processGroup = opts.processGroup === true;
  const run = inOwnPidNamespace(cmd, args, { wanted: processGroup && opts.ownPidNamespace === true });
  // A processGroup child's tree is also found by a marker in its environment (runtime/shared/process-groups.ts),
  // unless a PID namespace of its own holds it.
  const tree = processGroup && opts.groupOnly !== true && !run.namespaced ? markTree(opts.env ?? process.env) : undefined;
  let child: ChildProcess & { stdin: NonNullable<ChildProcess["stdin"]>; stdout: Readable; stderr: Readable };
  try {
    child = spawn(run.cmd, run.args, {
      cwd: opts.cwd,
      env: tree?.env ?? opts.env,
      shell: false,
      windowsHide: true,
      // setsid(2) on POSIX: a new session and process group led by the child.
      detached: processGroup,
      stdio: ["pipe", "pipe", "pipe"],
    });
  } catch (err) {
    // Node throws at once for some failures (a cwd that is a file) and reports others through "error".
    return failedChild(err, attempt);
  }
  // No pid: the spawn failed, and an "error" event says why (Bun's pipes are destroyed already,
  // which Readable.toWeb would throw for).
  if (child.pid === undefined) return failingChild(new Promise((resolve) => child.once("error", resolve)), attempt);
  // A child that exits without reading its stdin makes a write fail with EPIPE; the writer hears of it, not the process.
  child.stdin.on("error", () => {});
  if (opts.stdin === undefined) child.stdin.end();
  else if (opts.stdin !== "pipe") child.stdin.end(opts.stdin);

  const exited = new Promise<number>((resolve, reject) => {
    child.once("error", (err) => reject(toRuntimeError(err)));
    // "exit", not "close": a grandchild holding the pipes open must not hold `exited` back (Bun's
    // and Deno's resolve when the process ends, too); the streams still deliver what is left.
    child.once("exit", (code, signal) => resolve(code ?? 128 + (signal === null ? 0 : osConstants.signals[signal])));
  });
  // Callers that only read the streams must not crash the process when the command is missing.
  exited.catch(() => {});
  const pid = child.pid;
  abortUntilExit(opts.signal, { exited, onAbort: processGroup ? () => endGroup(pid, tree?.marker) : () => child.kill("SIGTERM") });
  if (processGroup) {
    trackGroup(pid, exited);
    unrefAll(child);
  }

  return {
    pid,
    stdin: opts.stdin === "pipe" ? childStdin(nodeStdinSink(child.stdin)) : undefined,
    // Node's web stream type and the DOM's are the same object at run time but distinct types.
    stdout: Readable.toWeb(child.stdout) as unknown as ReadableStream<Uint8Array>,
    stderr: Readable.toWeb(child.stderr) as unknown as ReadableStream<Uint8Array>,
    exited,
    kill: groupAwareKill((signal) => child.kill(signal), { pid, processGroup, ...(tree === undefined ? {} : { marker: tree.marker }) }),
  };
}

/** A processGroup child and its pipes must not keep the event loop alive (src/ports/spawn.ts, SpawnOptions). */
function unrefAll(child: ChildProcess): void {
  child.unref();
  for (const pipe of [child.stdin, child.stdout, child.stderr]) {
    // The pipes are net.Sockets at run time, typed as plain streams.
    if (pipe !== null && "unref" in pipe && typeof pipe.unref === "function") pipe.unref();
  }
}

/** The first executable regular file named `cmd` on PATH (or `cmd` itself when it has a slash). */
export async function nodeWhich(cmd: string, env: Readonly<Record<string, string | undefined>>): Promise<string | undefined> {
  if (cmd === "") return undefined;
  if (cmd.includes("/") || cmd.includes("\\")) return (await isExecutable(cmd)) ? cmd : undefined;
  const dirs = (env.PATH ?? env.Path ?? "").split(delimiter).filter((d) => d !== "");
  // Windows finds "git" as "git.exe"; elsewhere the name is exact.
  const exts = process.platform === "win32" ? ["", ...(env.PATHEXT ?? ".EXE;.CMD;.BAT;.COM").split(";")] : [""];
  for (const dir of dirs) {
    for (const ext of exts) {
      const candidate = join(dir, cmd + ext);
      if (await isExecutable(candidate)) return candidate;
    }
  }
  return undefined;
}

async function isExecutable(path: string): Promise<boolean> {
  try {
    await access(path, fsConstants.X_OK);
    // Directories pass X_OK too.
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}
