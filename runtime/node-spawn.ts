// Runtime.spawn and Runtime.which on node:child_process. Never a shell: arguments reach the program
// as given, so nothing in them can be interpreted (DESIGN.md, "Security in one place each").
import { spawn } from "node:child_process";
import { constants as fsConstants } from "node:fs";
import { access, stat } from "node:fs/promises";
import { constants as osConstants } from "node:os";
import { delimiter, join } from "node:path";
import { Readable } from "node:stream";
import type { Child, SpawnOptions } from "../src/runtime.ts";
import { toRuntimeError } from "./node-errors.ts";
import { abortedChild } from "./spawn-failed.ts";

export function nodeSpawn(cmd: string, args: string[], opts: SpawnOptions): Child {
  if (opts.signal?.aborted === true) return abortedChild();
  const child = spawn(cmd, args, {
    cwd: opts.cwd,
    env: opts.env,
    shell: false,
    windowsHide: true,
    stdio: ["pipe", "pipe", "pipe"],
  });
  // A child that exits without reading its stdin makes the write fail with EPIPE; that is not ours to report.
  child.stdin.on("error", () => {});
  if (opts.stdin === undefined) child.stdin.end();
  else child.stdin.end(opts.stdin);

  const onAbort = () => child.kill("SIGTERM");
  opts.signal?.addEventListener("abort", onAbort, { once: true });

  const exited = new Promise<number>((resolve, reject) => {
    child.once("error", (err) => {
      opts.signal?.removeEventListener("abort", onAbort);
      reject(toRuntimeError(err));
    });
    child.once("close", (code, signal) => {
      opts.signal?.removeEventListener("abort", onAbort);
      resolve(code ?? 128 + (signal === null ? 0 : osConstants.signals[signal]));
    });
  });
  // Callers that only read the streams must not crash the process when the command is missing.
  exited.catch(() => {});

  return {
    pid: child.pid,
    // Node's web stream type and the DOM's are the same object at run time but distinct types.
    stdout: Readable.toWeb(child.stdout) as unknown as ReadableStream<Uint8Array>,
    stderr: Readable.toWeb(child.stderr) as unknown as ReadableStream<Uint8Array>,
    exited,
    kill: (signal = "SIGTERM") => {
      child.kill(signal);
    },
  };
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
