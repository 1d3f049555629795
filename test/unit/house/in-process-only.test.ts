// The unit project's guard (test/unit/in-process-only.ts): every way of starting a child process
// throws, through ESM named imports as well as the module object, and an attempt the code under
// test swallows is still recorded, so afterEach fails the test. Worker threads still run.
import * as childProcess from "node:child_process";
import { exec, execFile, execFileSync, execSync, fork, spawn, spawnSync } from "node:child_process";
import { Worker } from "node:worker_threads";
import { afterEach, describe, expect, it } from "vitest";
import { failOnChildProcessAttempts, IN_PROCESS_ONLY, takeChildProcessAttempts } from "../in-process-only.ts";

interface Spawnable {
  spawn(options: { file: string; args: string[] }): unknown;
}

const starters: [string, () => unknown][] = [
  ["spawn", () => spawn("git", ["--version"])],
  ["spawnSync", () => spawnSync("git", ["--version"])],
  ["exec", () => exec("git --version")],
  ["execSync", () => execSync("git --version")],
  ["execFile", () => execFile("rg", ["--version"])],
  ["execFileSync", () => execFileSync("rg", ["--version"])],
  ["fork", () => fork("script.mjs")],
  ["the module object's spawn", () => childProcess.spawn("git", ["--version"])],
  // ChildProcess#spawn is public at run time but missing from Node's types.
  ["a ChildProcess built by hand", () => (new childProcess.ChildProcess() as unknown as Spawnable).spawn({ file: "git", args: ["git"] })],
];

describe("the in-process guard", () => {
  // Each case here makes an attempt on purpose; what it recorded is checked and cleared, so the
  // guard's own afterEach has nothing left to fail on.
  afterEach(() => {
    takeChildProcessAttempts();
  });

  it.each(starters)("refuses %s with the way out in the message", (_name, start) => {
    expect(start).toThrow(IN_PROCESS_ONLY);
    expect(takeChildProcessAttempts()).toHaveLength(1);
  });

  it("records an attempt that the code under test catches, and the hook fails on it", () => {
    const swallow = () => {
      try {
        spawnSync("git", ["status"]);
      } catch {
        // A tool that falls back when its program cannot start would do this.
      }
    };
    swallow();
    expect(takeChildProcessAttempts()).toEqual(["spawnSync(git status)"]);
    swallow();
    expect(failOnChildProcessAttempts).toThrow(`${IN_PROCESS_ONLY}; it tried to start: spawnSync(git status)`);
    expect(failOnChildProcessAttempts).not.toThrow();
  });

  it("lets worker threads run: they are in-process", async () => {
    const worker = new Worker("require('node:worker_threads').parentPort.postMessage(6 * 7)", { eval: true });
    const answer = await new Promise((resolve, reject) => {
      worker.once("message", resolve);
      worker.once("error", reject);
    });
    await worker.terminate();
    expect(answer).toBe(42);
    expect(takeChildProcessAttempts()).toEqual([]);
  });
});
