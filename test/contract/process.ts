// Starts a process for the contract suite and waits for a line that says it is ready. Every
// process is tracked, so a test file's afterAll (or the worker's exit) stops what is left.
import { spawn, type ChildProcess } from "node:child_process";
import { REPO_ROOT } from "../helpers/spawn-bridge.ts";

const STOP_GRACE_MS = 5_000;

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface Started {
  proc: ChildProcess;
  /** The first match of the ready pattern. */
  ready: RegExpExecArray;
  exited: Promise<ExitInfo>;
  stdout(): string;
  stderr(): string;
  /** Sends `signal` (SIGTERM by default), SIGKILL after 5 s; resolves with how it ended. */
  stop(signal?: NodeJS.Signals): Promise<ExitInfo>;
}

export interface StartOptions {
  env?: Record<string, string>;
  /** Matched against stderr (the bridge logs there) and stdout (probes print there). */
  ready: RegExp;
  timeoutMs?: number;
  stdin?: "pipe" | "ignore";
  /** Working directory (the repository by default). */
  cwd?: string;
}

const running = new Set<Started>();

process.once("exit", () => {
  for (const p of running) p.proc.kill("SIGKILL");
});

export async function startProcess(command: [string, ...string[]], opts: StartOptions): Promise<Started> {
  const [exe, ...args] = command;
  const proc = spawn(exe, args, {
    cwd: opts.cwd ?? REPO_ROOT,
    env: { ...process.env, ...opts.env },
    stdio: [opts.stdin ?? "ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  let exitInfo: ExitInfo | undefined;
  const exited = new Promise<ExitInfo>((resolve) =>
    proc.once("exit", (code, signal) => {
      exitInfo = { code, signal };
      resolve(exitInfo);
    }),
  );
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const ready = await new Promise<RegExpExecArray>((resolve, reject) => {
    const check = (): void => {
      const m = opts.ready.exec(stderr) ?? opts.ready.exec(stdout);
      if (m) {
        clearTimeout(timer);
        resolve(m);
      }
    };
    proc.stdout?.setEncoding("utf8").on("data", (d: string) => {
      stdout += d;
      check();
    });
    proc.stderr?.setEncoding("utf8").on("data", (d: string) => {
      stderr += d;
      check();
    });
    const timer = setTimeout(() => {
      proc.kill("SIGKILL");
      reject(
        new Error(
          `${command.join(" ")}: not ready (${opts.ready}) within ${timeoutMs} ms\n--- stderr ---\n${stderr}\n--- stdout ---\n${stdout}`,
        ),
      );
    }, timeoutMs);
    proc.once("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
    void exited.then((info) => {
      clearTimeout(timer);
      reject(
        new Error(
          `${command.join(" ")} exited (${JSON.stringify(info)}) before ready\n--- stderr ---\n${stderr}\n--- stdout ---\n${stdout}`,
        ),
      );
    });
  });
  const started: Started = {
    proc,
    ready,
    exited,
    stdout: () => stdout,
    stderr: () => stderr,
    async stop(signal: NodeJS.Signals = "SIGTERM") {
      if (exitInfo === undefined) {
        proc.kill(signal);
        const killer = setTimeout(() => proc.kill("SIGKILL"), STOP_GRACE_MS);
        await exited;
        clearTimeout(killer);
      }
      running.delete(started);
      return exitInfo ?? (await exited);
    },
  };
  running.add(started);
  return started;
}

export async function stopAll(): Promise<void> {
  await Promise.all([...running].map((p) => p.stop()));
}
