// Children that never ran, and the one error every runtime reports for a spawn that could not
// start: Node fails through `exited` (or throws, for a cwd that is a file), Bun and Deno throw, and
// each names a missing cwd differently (Node blames the command, Deno says ENOENT for a file).
import { statSync } from "node:fs";
import { RuntimeError } from "../../src/ports/errors.ts";
import type { Child } from "../../src/ports/spawn.ts";
import { deadStdin } from "./child-stdin.ts";
import { nodeErrorCode, toRuntimeError } from "./errors.ts";

export interface SpawnAttempt {
  cmd: string;
  cwd: string;
  /** Whether the caller asked for `stdin: "pipe"`, and so expects a `child.stdin`. */
  pipe: boolean;
}

/**
 * ENOENT for a missing command or cwd, ENOTDIR for a cwd that is not a directory, EACCES for a
 * command that is not executable (a directory included), with a message saying which.
 */
function spawnError(err: unknown, attempt: SpawnAttempt): RuntimeError {
  // Only asked once the spawn failed, so the common path pays no stat.
  const cwd = cwdFault(attempt.cwd);
  if (cwd !== undefined)
    return new RuntimeError(
      cwd,
      `spawn ${attempt.cmd}: the working directory ${attempt.cwd} ${cwd === "ENOENT" ? "does not exist" : "is not a directory"}`,
      { cause: err },
    );
  const translated = toRuntimeError(err);
  // The command is there: the working directory was missing at the spawn and is back now (being
  // replaced), or the file names an interpreter that is missing (a #! line).
  if (translated.code === "ENOENT" && isFile(attempt.cmd))
    return new RuntimeError(
      "ENOENT",
      `spawn ${attempt.cmd}: the working directory ${attempt.cwd} was missing when it started (it is there now), or the script's interpreter is missing`,
      { cause: err },
    );
  if (translated.code === "ENOENT") return new RuntimeError("ENOENT", `spawn ${attempt.cmd}: no such command`, { cause: err });
  if (translated.code === "EACCES") return new RuntimeError("EACCES", `spawn ${attempt.cmd}: not an executable file`, { cause: err });
  return translated;
}

function isFile(path: string): boolean {
  try {
    return path.includes("/") && statSync(path).isFile();
  } catch {
    return false;
  }
}

function cwdFault(cwd: string): "ENOENT" | "ENOTDIR" | undefined {
  try {
    return statSync(cwd).isDirectory() ? undefined : "ENOTDIR";
  } catch (err) {
    const code = nodeErrorCode(err);
    return code === "ENOENT" || code === "ENOTDIR" ? code : undefined;
  }
}

/**
 * A Child for a process that never started: empty streams and an `exited` that rejects with the
 * spawn's error (spawnError with the attempt, else `err` as a RuntimeError).
 */
export function failedChild(err: unknown, attempt?: SpawnAttempt): Child {
  const error = attempt === undefined ? toRuntimeError(err) : spawnError(err, attempt);
  return neverRan(attempt?.pipe === true, Promise.resolve(error), Promise.reject(error));
}

/** failedChild for a spawn whose error comes later (Node's and Bun's node:child_process emit it). */
export function failingChild(err: Promise<unknown>, attempt: SpawnAttempt): Child {
  const error = err.then((cause) => spawnError(cause, attempt));
  return neverRan(
    attempt.pipe,
    error,
    error.then((e) => Promise.reject(e)),
  );
}

/** Exit status of a child ended by SIGTERM (128 + 15), what an aborted spawn reports everywhere. */
const ABORTED_EXIT = 143;

/**
 * A Child for a spawn whose signal was aborted before it started: nothing runs, and `exited`
 * resolves as if the child had been sent SIGTERM at once. (Node spawns and kills, Bun rejects,
 * Deno reported exit 0; callers get one answer.)
 */
export function abortedChild(pipe: boolean): Child {
  const error = new RuntimeError("EPIPE", "the child was aborted before it started");
  return neverRan(pipe, Promise.resolve(error), Promise.resolve(ABORTED_EXIT));
}

function neverRan(pipe: boolean, stdinError: Promise<RuntimeError>, exited: Promise<number>): Child {
  // Callers that only read the streams must not crash the process with an unhandled rejection.
  exited.catch(() => {});
  const empty = () => new ReadableStream<Uint8Array>({ start: (controller) => controller.close() });
  return { pid: undefined, stdin: pipe ? deadStdin(stdinError) : undefined, stdout: empty(), stderr: empty(), exited, kill: () => {} };
}
