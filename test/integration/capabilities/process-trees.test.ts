// What a command leaves running ends with it. Each pattern starts a long-lived process the ways a
// script detaches one (a background job, nohup, setsid, setsid -f, a double fork, disown, a daemon
// that ignores SIGTERM, one that keeps forking, a Python daemon's fork-setsid-fork) and writes its
// pid; runCommand returns and every one of them must be gone soon after. First, the control: ended
// by its process group alone, as before, the setsid'd ones outlive the command (that is the gap).
// Last, the bridge's own exit: a tree still running when the bridge process exits is ended too.
import { execFile, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { chmod, mkdir, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNodeRuntime } from "../../../runtime/node.ts";
import { pidNamespacePrefix } from "../../../runtime/shared/pid-namespace.ts";
import { nodeWhich } from "../../../runtime/shared/spawn.ts";
import type { Runtime } from "../../../src/ports/runtime.ts";
import type { SpawnOptions } from "../../../src/ports/spawn.ts";
import type { ToolHost } from "../../../src/tools/platform/tool-environment.ts";
import { commandsToolset } from "../../../src/tools/commands/index.ts";
import { gitToolset } from "../../../src/tools/git/index.ts";
import { gitFixture } from "../../helpers/git-fixture.ts";
import { running } from "../../helpers/process-running.ts";
import { dispatcher } from "../../helpers/tool-dispatch.ts";

let base: string;
let ws: string;
let bin: string;
const stray = new Set<number>();

/**
 * Each way of detaching a long-lived process, given the shell code it runs (`inner`: write its pid
 * to a file, then exec sleep, so the pid stays). Each writes at least one pid.
 */
const PATTERNS: Record<string, (inner: string) => string> = {
  background: (i) => `sh -c '${i}' &`,
  nohup: (i) => `nohup sh -c '${i}' >/dev/null 2>&1 &`,
  setsid: (i) => `setsid sh -c '${i}' >/dev/null 2>&1 &`,
  "setsid -f": (i) => `setsid -f sh -c '${i}' >/dev/null 2>&1`,
  "setsid holding stdout": (i) => `setsid sh -c '${i}' &`,
  "double fork": (i) => `( sh -c '${i}' >/dev/null 2>&1 & )`,
  disown: (i) => `sh -c '${i}' >/dev/null 2>&1 & disown`,
  "setsid ignoring SIGTERM": (i) => `setsid sh -c 'trap "" TERM; ${i}' >/dev/null 2>&1 &`,
  "setsid forking again and again": (i) =>
    `setsid sh -c 'while :; do sh -c "${i.replace(/\$/g, "\\$")}" & sleep 0.2; done' >/dev/null 2>&1 &`,
  "python fork-setsid-fork daemon": (i) =>
    `python3 -c 'import os,sys
if os.fork(): sys.exit(0)
os.setsid()
if os.fork(): sys.exit(0)
os.execvp("sh", ["sh", "-c", sys.argv[1]])' "${i.replace(/\$/g, "\\$")}" </dev/null >/dev/null 2>&1`,
  // With the environment cleared, the tree's marker is gone too: only a PID namespace ends these.
  "env -i setsid": (i) => `env -i PIDFILE="$PIDFILE" setsid sh -c '${i}' >/dev/null 2>&1 &`,
  "env -i setsid -f": (i) => `env -i PIDFILE="$PIDFILE" setsid -f sh -c '${i}' >/dev/null 2>&1`,
  "env - nohup in a double fork": (i) => `( env - PIDFILE="$PIDFILE" nohup setsid sh -c '${i}' >/dev/null 2>&1 & )`,
};

/**
 * The job: append its pid to the file named by the command's argument, then become `sleep 300`. The
 * pid is read from /proc/self/stat, not $$: inside a PID namespace $$ is the namespace's number,
 * while /proc (the host's, mounted outside) gives the one this test can signal.
 */
const LIFE = 'read -r p rest < /proc/self/stat; echo $p >> "$PIDFILE"; exec sleep 300';

function pidsOf(text: string): number[] {
  return text
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map(Number);
}

async function readPids(file: string): Promise<number[]> {
  return pidsOf(await readFile(file, "utf8").catch(() => ""));
}

function testRuntime(): Runtime {
  const real = createNodeRuntime();
  const env = { ...real.env, PATH: `${bin}:${real.env.PATH ?? ""}` };
  return { ...real, env, which: (cmd) => nodeWhich(cmd, env) };
}

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "cib-trees-")));
  ws = join(base, "ws");
  bin = join(base, "bin");
  await mkdir(ws);
  await mkdir(bin);
  await mkdir(join(ws, "pids"));
  for (const [i, pattern] of Object.values(PATTERNS).entries()) {
    const path = join(bin, `detach${i}`);
    // The command ends only once its job has written its pid: ending it cannot race the write.
    await writeFile(
      path,
      `#!/bin/sh\nexport PIDFILE="$1"\n${pattern(LIFE)}\nwhile [ ! -s "$PIDFILE" ]; do sleep 0.05; done\necho started\n`,
    );
    await chmod(path, 0o755);
  }
});

/** The session of a process (field 6 of /proc/<pid>/stat), to clean up what a control run left. */
function sessionOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[3]);
  } catch {
    return undefined;
  }
}

/** The process group of a process (field 5 of /proc/<pid>/stat), or undefined once it is gone. */
function groupOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]);
  } catch {
    return undefined;
  }
}

/** Ends a job and its session (a forking loop's shell, a daemon's group), by the pids it wrote. */
function endJob(pids: readonly number[]): void {
  for (const pid of pids) {
    const sid = sessionOf(pid);
    for (const target of sid === undefined || sid <= 1 ? [pid] : [-sid, pid]) {
      try {
        process.kill(target, "SIGKILL");
      } catch {
        // gone
      }
    }
  }
}

afterAll(async () => {
  endJob([...stray]);
  await rm(base, { recursive: true, force: true });
});

let runs = 0;

/** A fresh pid file inside the workspace (runCommand's path rule), for one run of a pattern. */
function pidFile(): string {
  return join(ws, "pids", `run-${++runs}`);
}

async function written(file: string): Promise<number[]> {
  const pids = await readPids(file);
  for (const pid of pids) stray.add(pid);
  return pids;
}

describe("background jobs end with their command", () => {
  it("control: ended by its process group alone, as before, the setsid'd jobs survive", async () => {
    const survivors: string[] = [];
    for (const [i, name] of Object.keys(PATTERNS).entries()) {
      const file = pidFile();
      const child = spawn(join(bin, `detach${i}`), [file], { detached: true, stdio: "ignore", cwd: ws });
      await new Promise((resolve) => child.once("exit", resolve));
      const pids = await written(file);
      // The jobs still in the command's group when it is killed: those must end. The rest left it.
      const inGroup = pids.filter((pid) => groupOf(pid) === child.pid);
      try {
        process.kill(-(child.pid ?? 0), "SIGKILL");
      } catch {
        // the group may be empty already
      }
      // Until the group's jobs are gone (a SIGKILL is not refused, only slow to land on a loaded
      // machine), not a fixed pause: what is still running then is what the group kill missed.
      await expect.poll(() => inGroup.filter(running), { timeout: 15_000, interval: 20, message: name }).toEqual([]);
      if ((await written(file)).some(running)) survivors.push(name);
      endJob(await written(file));
      expect(pids.length, name).toBeGreaterThan(0);
    }
    expect(survivors).toEqual(
      expect.arrayContaining([
        "setsid",
        "setsid -f",
        "setsid ignoring SIGTERM",
        "python fork-setsid-fork daemon",
        "env -i setsid",
        "env -i setsid -f",
      ]),
    );
  });

  it(`runCommand: none of ${Object.keys(PATTERNS).length} detaching patterns outlives its command`, async () => {
    const names = Object.keys(PATTERNS);
    const d = await dispatcher(ws, { runtime: testRuntime(), settings: { allowCommands: names.map((_, i) => `detach${i}`) } });
    const alive: Record<string, number[]> = {};
    for (const [i, name] of names.entries()) {
      const file = pidFile();
      const text = await d.text("runCommand", { command: `detach${i}`, args: [file], timeoutMs: 60_000 });
      expect(text, name).toMatch(/exit 0/);
      expect((await written(file)).length, name).toBeGreaterThan(0);
      // SIGTERM at once, SIGKILL 2 s later for what ignores it: all gone well within 15 s.
      await expect.poll(async () => (await written(file)).filter(running), { timeout: 15_000, interval: 200, message: name }).toEqual([]);
      alive[name] = (await written(file)).filter(running);
    }
    expect(Object.values(alive).flat()).toEqual([]);
  });

  // With a PID namespace (where one can be made) the tree carries no marker: the namespace ends with the
  // wrapper, which the exit's SIGTERM to the group ends.
  it.each([
    { how: "by its marker", ownPidNamespace: false },
    ...(pidNamespacePrefix() === undefined ? [] : [{ how: "by its PID namespace", ownPidNamespace: true }]),
  ])("the bridge's exit ends a detached job of a command still running, $how", async ({ ownPidNamespace }) => {
    const i = Object.keys(PATTERNS).indexOf("setsid ignoring SIGTERM");
    const file = pidFile();
    // A Node process standing in for the bridge: it starts the command as ctx.exec does, then exits.
    const host = join(base, "host.ts");
    await writeFile(
      host,
      [
        `import { nodeSpawn } from ${JSON.stringify(join(process.cwd(), "runtime/shared/spawn.ts"))};`,
        `nodeSpawn(${JSON.stringify(join(bin, `detach${i}`))}, [${JSON.stringify(file)}], { cwd: ${JSON.stringify(ws)}, processGroup: true, ownPidNamespace: ${ownPidNamespace}, env: { PATH: process.env.PATH ?? "" } });`,
        `setTimeout(() => process.exit(0), 3000);`,
      ].join("\n"),
    );
    await promisify(execFile)(join(process.cwd(), "node_modules", ".bin", "tsx"), [host], { timeout: 60_000 });
    const pids = await written(file);
    expect(pids.length).toBeGreaterThan(0);
    await expect.poll(() => pids.filter(running), { timeout: 10_000, interval: 200 }).toEqual([]);
  });
});

describe("which trees need the scan for escaped processes", () => {
  it("the git tools' own runs are ended by their group alone; runCommand's git and runs with hooks keep the scan", async () => {
    const fx = await gitFixture(join(base, "git"));
    const root = await fx.repo(join(base, "git", "repo"), { "a.txt": "a\n" });
    await writeFile(join(root, "a.txt"), "changed\n");
    const real = fx.runtime();
    const spawned: { args: readonly string[]; opts: SpawnOptions }[] = [];
    const recording: ToolHost["runtime"] = {
      ...real,
      spawn(cmd, args, opts) {
        if (cmd.endsWith("/git")) spawned.push({ args, opts });
        return real.spawn(cmd, args, opts);
      },
    };
    const groupOnly = async (tool: string, args: Record<string, unknown>, settings = {}) => {
      const d = await dispatcher(root, { toolsets: [gitToolset, commandsToolset], runtime: recording, settings });
      spawned.length = 0;
      const result = await d.call(tool, args);
      expect(result.isError, JSON.stringify(result.content)).toBeUndefined();
      expect(spawned.every((s) => s.opts.processGroup === true)).toBe(true);
      return spawned.map((s) => s.opts.groupOnly === true);
    };
    const status = await groupOnly("getGitStatus", {});
    expect(status.length).toBeGreaterThan(1);
    expect(status.every(Boolean)).toBe(true);
    expect((await groupOnly("runCommand", { command: "git", args: ["status"] })).some(Boolean)).toBe(false);
    // With the user's --allow-git-hooks a commit runs the repository's hooks, which may detach: that run is scanned.
    const commit = await groupOnly("gitCommit", { message: "m", files: ["a.txt"] }, { allowGitHooks: true });
    expect(commit).toContain(false);
    expect(commit).toContain(true);
  });
});
