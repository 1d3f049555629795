// A racer fixture (test/fixtures/*-racer.mjs) as a child process: started, it prints "ready" once
// it swaps; stopped with SIGTERM, it prints how many swaps it made. The race tests use the count to
// show the race really ran.
import { spawn, type ChildProcess } from "node:child_process";

export interface Racer {
  /** Ends the racer and returns its swap count (0 if it had already ended). */
  stop(): Promise<number>;
}

export function startRacer(script: string, args: readonly string[]): Promise<Racer> {
  const child: ChildProcess = spawn(process.execPath, [script, ...args], { stdio: ["ignore", "pipe", "inherit"] });
  const racer: Racer = { stop: () => stopRacer(child) };
  return new Promise((resolve, reject) => {
    child.stdout?.setEncoding("utf8").once("data", (line: string) => (line.startsWith("ready") ? resolve(racer) : reject(new Error(line))));
    child.once("exit", (code) => reject(new Error(`racer exited with ${code}`)));
  });
}

async function stopRacer(child: ChildProcess): Promise<number> {
  if (child.exitCode !== null) return 0;
  let out = "";
  child.stdout?.on("data", (s: string) => (out += s));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
  return Number(/swaps (\d+)/.exec(out)?.[1] ?? 0);
}
