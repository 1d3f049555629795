// Runtime.spawn beyond run-and-wait, held to one contract on node, bun and deno: a conversation over
// child.stdin (how language servers are driven), process groups (a tree killed as one, by kill or
// abort; out of reach of the terminal's Ctrl-C; never keeping the bridge alive nor outliving it),
// writes to a dead child, and one table of spawn errors. The probe (fixtures/probe-spawn.ts) and a
// bridge-like process (fixtures/lifetime-probe.ts) run under each runtime; this file, on Node,
// checks from outside which processes are still there.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { running } from "../helpers/process-running.ts";
import { REPO_ROOT } from "../helpers/spawn-bridge.ts";
import { startProcess, stopAll, type Started } from "./process.ts";
import { assertRuntimesInstalled, RUNTIMES, scriptCommand, type RuntimeName } from "./runtimes.ts";

const FIXTURES = join(REPO_ROOT, "test", "contract", "fixtures");
/** How long a signalled process may take to be gone; far beyond what it needs. */
const GONE_WITHIN_MS = 5_000;
/** Process groups the tests started, by leader, with the members known: for afterAll to end. */
const groups = new Map<number, number[]>();

beforeAll(() => assertRuntimesInstalled());
afterAll(async () => {
  // A failed test must not leave its sleeping trees behind. Only groups with a member still
  // running: an empty group's number may belong to someone else by now.
  for (const [leader, members] of groups) {
    if (![leader, ...members].some(running)) continue;
    try {
      process.kill(-leader, "SIGKILL");
    } catch {
      // Gone meanwhile.
    }
  }
  await stopAll();
});

async function expectGone(...pids: number[]): Promise<void> {
  await expect.poll(() => pids.filter(running), { timeout: GONE_WITHIN_MS }).toEqual([]);
}

/** What fixtures/probe-spawn.ts reports of a processGroup shell and its background job. */
interface Tree {
  leader: number;
  job: number;
}

describe.each(RUNTIMES)("spawn on %s", (runtime) => {
  let probe: Started;
  let get: <T = unknown>(path: string) => Promise<T>;

  beforeAll(async () => {
    probe = await startProcess(scriptCommand(runtime, join(FIXTURES, "runtime-probe.ts")), { ready: /PROBE_PORT=(\d+)/ });
    const base = `http://127.0.0.1:${probe.ready[1]}`;
    get = async <T>(path: string) => (await (await fetch(`${base}${path}`)).json()) as T;
  });

  afterAll(async () => {
    await probe?.stop();
  });

  it('holds a conversation over child.stdin with stdin: "pipe": write, read the echo, again, close, exit 0', async () => {
    expect(await get("/spawn/conversation")).toEqual({ replies: ["echo:one", "echo:two words"], afterClose: null, exit: { ok: 0 } });
  });

  it("streams 4 MB through child.stdin with backpressure", async () => {
    expect(await get("/spawn/bulk")).toEqual({ echoed: 4 * 1024 * 1024, allSevens: true, exit: { ok: 0 } });
  });

  it.each([
    ["kill(SIGTERM, { group: true })", "group"],
    ["an abort of the signal", "abort"],
  ])("ends a processGroup child's whole tree through %s (exit 143)", async (_name, how) => {
    const report = await get<Tree>(`/spawn/tree/${how}`);
    groups.set(report.leader, [report.job]);
    expect(report).toMatchObject({ leader: expect.any(Number), job: expect.any(Number), exit: { ok: 143 } });
    await expectGone(report.leader, report.job);
  });

  it("kill() without group ends the leader only; a group kill after it still reaches the job", async () => {
    const report = await get<Tree>("/spawn/tree/leader");
    groups.set(report.leader, [report.job]);
    expect(report).toMatchObject({ exit: { ok: 143 }, jobAliveAfterExit: true });
    await expectGone(report.job);
  });

  it("fails a write to a dead child's stdin with EPIPE, and lives on", async () => {
    const report = await get<Record<string, unknown>>("/spawn/dead-stdin");
    expect(report.exit).toEqual({ ok: 0 });
    expect(report.write).toEqual({ name: "RuntimeError", code: "EPIPE" });
    expect(await get("/spawn/dead-stdin")).toMatchObject({ write: { code: "EPIPE" } });
  });

  it("has no child.stdin without pipe, refuses a group kill of a plain child, and aborts a piped spawn cleanly", async () => {
    expect(await get("/spawn/misuse")).toEqual({
      stdinWithoutPipe: true,
      groupKillOfPlainChild: { name: "RuntimeError", code: "EINVAL" },
      plainExit: { ok: 137 },
      abortedExit: { ok: 143 },
      abortedWrite: { name: "RuntimeError", code: "EPIPE" },
    });
  });

  it("reports spawns that cannot start with the same POSIX codes", async () => {
    const failed = (code: string) => ({ exit: { name: "RuntimeError", code }, pid: null, stdout: "" });
    expect(await get("/spawn/errors")).toEqual({
      missingCommand: failed("ENOENT"),
      missingAbsolute: failed("ENOENT"),
      missingCwd: failed("ENOENT"),
      cwdIsAFile: failed("ENOTDIR"),
      notExecutable: failed("EACCES"),
      directory: failed("EACCES"),
    });
  });
});

interface Lifetime {
  pid: number;
  leader: number;
  job: number;
  output: () => string;
  exited: Promise<number | null>;
}

/** Starts fixtures/lifetime-probe.ts leading its own process group, as a terminal's job would. */
async function startLifetime(runtime: RuntimeName, mode: "idle" | "ctrl-c"): Promise<Lifetime> {
  const [exe, ...args] = scriptCommand(runtime, join(FIXTURES, "lifetime-probe.ts"));
  const proc = spawn(exe, [...args, mode], { cwd: REPO_ROOT, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  if (proc.pid === undefined) throw new Error(`${exe} did not start`);
  groups.set(proc.pid, []);
  let output = "";
  // "close": all output read, which "exit" does not promise.
  const exited = new Promise<number | null>((resolve) => proc.once("close", (code) => resolve(code)));
  const started = await new Promise<RegExpExecArray>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const m = /LIFETIME leader=(\d+) job=(\d+)/.exec(output);
      if (m) resolve(m);
    };
    proc.stdout.on("data", onData);
    proc.stderr.on("data", onData);
    void exited.then((code) => reject(new Error(`lifetime probe exited (${code}) before it was ready:\n${output}`)));
  });
  const [leader, job] = [Number(started[1]), Number(started[2])];
  groups.set(leader, [job]);
  return { pid: proc.pid, leader, job, output: () => output, exited };
}

describe.each(RUNTIMES)("a processGroup child's lifetime on %s", (runtime) => {
  it("does not keep its parent alive, and ends with it", async () => {
    const lifetime = await startLifetime(runtime, "idle");
    expect(await lifetime.exited).toBe(0);
    await expectGone(lifetime.leader, lifetime.job);
  });

  it("is out of reach of the terminal's Ctrl-C, which ends plain children; the shutdown that follows ends it", async () => {
    const lifetime = await startLifetime(runtime, "ctrl-c");
    // What a terminal does on Ctrl-C: SIGINT to every process of the foreground group.
    process.kill(-lifetime.pid, "SIGINT");
    expect(await lifetime.exited).toBe(0);
    expect(lifetime.output()).toContain("SHUTDOWN leaderAlive=true jobAlive=true plainExit=130");
    await expectGone(lifetime.leader, lifetime.job);
  });
});
