// startDebugging attaching to running processes by process id, and to a headless delve by port.
// A Node launcher runs under the debugger (so the bridge started it) and starts a Go, a C, a Node
// and a Python program, and a worker thread: the Go, C and Node programs are attached to by pid,
// stop at a breakpoint with a local read, and run on after stopDebugging detaches; the Python one,
// a process the bridge did not start, one outside the workspace, and the bridge itself are refused
// with the reason. A C program the test starts is attached to through a launch.json "processId"
// written after it started, refused once the file reads as older than the process. A headless
// delve the test starts (dlv exec --headless --accept-multiclient) is attached to by its port, and
// so is a C program waiting under lldb-server gdbserver.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { debugClient, type DebugClient } from "../../helpers/debug-harness.ts";
import { freePort, startedProgram } from "../../helpers/debuggee.ts";
import { running } from "../../helpers/process-running.ts";
import { resultOf } from "../../helpers/session-fixture.ts";
import { readToolError } from "../../helpers/tool-error.ts";
import { tempWorkspaces, type TempWorkspaces } from "../../helpers/temp-workspace.ts";
import { linuxProcessTable } from "../../../runtime/shared/process-table.ts";

const GO_PROGRAM = `package main

import (
	"fmt"
	"os"
	"time"
)

func tick(n int) int {
	doubled := n * 2
	return doubled
}

func main() {
	fmt.Println("ready", os.Getpid())
	for n := 1; ; n++ {
		tick(n)
		time.Sleep(20 * time.Millisecond)
	}
}
`;

const C_PROGRAM = `#include <stdio.h>
#include <unistd.h>

int tick(int n) {
    int doubled = n * 2;
    return doubled;
}

int main(void) {
    printf("ready %d\\n", getpid());
    fflush(stdout);
    for (int n = 1;; n++) {
        tick(n);
        usleep(20000);
    }
}
`;

const NODE_PROGRAM = `let n = 0;
function tick() {
  n += 1;
  const doubled = n * 2;
  return doubled;
}
setInterval(tick, 20);
`;

// Starts the programs once its worker thread runs, prints their pids, and stops at the debugger statement.
const LAUNCHER = `const { spawn } = require("node:child_process");
const { Worker } = require("node:worker_threads");
const programs = {
  go: ["./goapp"],
  c: ["./app"],
  node: [process.execPath, "ticker.js"],
  python: ["/usr/bin/python3", "-c", "import time; time.sleep(600)"],
};
const worker = new Worker("setInterval(() => {}, 1000)", { eval: true });
worker.on("online", () => {
  for (const [name, [cmd, ...args]] of Object.entries(programs)) {
    console.log("child", name, spawn(cmd, args, { stdio: "ignore" }).pid);
  }
  setInterval(() => {}, 1000);
  debugger;
});
`;

interface Outcome {
  state: string;
  stop?: { reason: string; stack: { file?: string; line: number }[]; locals?: { name: string; value: string }[] };
}

let temp: TempWorkspaces;
let root: string;
let client: DebugClient;
const children: ChildProcess[] = [];
const pids: Record<string, number> = {};
/** Programs started in process groups of their own by delve or lldb-server: ended one by one. */
const strays: number[] = [];
const processes = linuxProcessTable();

/** Starts a program in `cwd` (its own process group) and resolves once it printed `pattern`. */
function started(cmd: string, args: string[], opts: { cwd: string; pattern: RegExp }) {
  return startedProgram(cmd, args, { ...opts, track: children, detached: true });
}

/** The first live process whose parent is `parent` (Linux /proc), 0 when none. */
function childOf(parent: number): number {
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === parent) return Number(name);
    } catch {
      // Gone meanwhile.
    }
  }
  return 0;
}

/** The process's state letter (R running, S sleeping, t traced, T stopped), from /proc. */
function stateOf(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2)[0] ?? "?";
}

async function refusal(args: Record<string, unknown>) {
  return readToolError(resultOf(await client.fixture.call("tools/call", { name: "startDebugging", arguments: args })));
}

function writeLaunchJson(configurations: unknown[]): void {
  writeFileSync(join(root, ".vscode/launch.json"), JSON.stringify({ version: "0.2.0", configurations }));
}

beforeAll(async () => {
  temp = await tempWorkspaces("debug-attach-pid-");
  root = await temp.make("ws", {
    "go.mod": "module example.com/ticker\n\ngo 1.19\n",
    "main.go": GO_PROGRAM,
    "app.c": C_PROGRAM,
    "ticker.js": NODE_PROGRAM,
    "launcher.js": LAUNCHER,
    ".vscode/launch.json": "{}",
  });
  // The program's own package without optimisations (its locals readable), the standard library as cached.
  execFileSync("go", ["build", "-gcflags=-N -l", "-o", "goapp", "main.go"], { cwd: root });
  execFileSync("gcc", ["-g", "-O0", "-o", join(root, "app"), join(root, "app.c")]);
  client = await debugClient(root);
  const launched = await client.data<Outcome>("startDebugging", { program: "launcher.js", timeoutMs: 60_000 });
  expect(launched.state, JSON.stringify(launched)).toBe("stopped");
  const output = await client.text("getDebugOutput", {});
  for (const [, name, pid] of output.matchAll(/^child (\w+) (\d+)$/gm)) pids[name ?? ""] = Number(pid);
  expect(Object.keys(pids).sort()).toEqual(["c", "go", "node", "python"]);
}, 180_000);

afterAll(async () => {
  // The launcher's session ends its process group: the programs it started go with it. They are
  // killed by pid too, so a run cut short (a failed or timed-out attach) leaves none of them behind.
  client?.endMcpSession();
  const launched = Object.values(pids).map((p) => [p, false] as const);
  for (const [pid, group] of [
    ...children.map((c) => [c.pid ?? 0, true] as const),
    ...strays.map((p) => [p, false] as const),
    ...launched,
  ]) {
    try {
      process.kill(group ? -pid : pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
  await temp.remove();
});

it("says the launcher's worker thread is not debugged, and lists it among the threads", async () => {
  expect(await client.text("getDebugOutput", {})).toContain("breakpoints in worker threads are not supported");
  const state = await client.data<{ threads: { id: number; name: string }[] }>("getDebugState", {});
  expect(state.threads.map((t) => t.name)).toEqual(["main", "worker thread 1: not debugged"]);
});

for (const [language, file, line] of [
  ["go", "main.go", 10],
  ["c", "app.c", 5],
  ["node", "ticker.js", 4],
] as const) {
  it(`attaches by process id to a ${language} program the debugged launcher started, and detaching leaves it running`, {
    timeout: 90_000,
  }, async () => {
    const pid = pids[language] ?? 0;
    await client.data("setDebugBreakpoints", { file, breakpoints: [{ line }] });
    const first = await client.data<Outcome & { msToFirstStop?: number; program: string }>("startDebugging", {
      processId: pid,
      timeoutMs: 30_000,
    });
    console.log(`[debug] ${language} by pid: startDebugging to first stop ${first.msToFirstStop} ms`);
    expect(first.program).toContain(`process ${pid}`);
    expect(first.stop?.reason).toBe("breakpoint");
    expect(first.stop?.stack[0]).toMatchObject({ file, line });
    expect(Number(first.stop?.locals?.find((v) => v.name === "n")?.value ?? (await evaluated("n")))).toBeGreaterThan(0);
    await client.data("setDebugBreakpoints", { file, breakpoints: [] });
    const stopped = await client.data<{ wasRunning: boolean }>("stopDebugging", {});
    expect(stopped.wasRunning).toBe(true);
    // Detached: the program is neither ended nor left stopped under a tracer.
    expect(running(pid)).toBe(true);
    await expect.poll(() => stateOf(pid), { timeout: 10_000 }).toMatch(/^[RS]$/);
    // The inspector the bridge opened by SIGUSR1 is closed again.
    if (language === "node") await expect.poll(() => processes?.listeningPorts(pid), { timeout: 10_000 }).toEqual([]);
  });
}

async function evaluated(expression: string): Promise<string> {
  return (await client.data<{ result: string }>("evaluateInDebugger", { expression })).result;
}

it("refuses a Python process, one the bridge did not start, one outside the workspace, and the bridge itself", async () => {
  const python = await refusal({ processId: pids.python });
  expect(python.code).toBe("not_supported");
  expect(python.suggestion).toContain("debugpy --listen");

  const { child: own } = await started("/bin/sh", ["-c", "echo ready; exec sleep 600"], { cwd: root, pattern: /ready/ });
  const notStarted = await refusal({ processId: own.pid });
  expect(notStarted.code).toBe("command_refused");
  expect(notStarted.error).toContain("was not started by the bridge");

  const elsewhere = await temp.make("elsewhere", {});
  const { child: outside } = await started("/bin/sh", ["-c", "echo ready; exec sleep 600"], { cwd: elsewhere, pattern: /ready/ });
  const out = await refusal({ processId: outside.pid });
  expect(out.code).toBe("command_refused");
  expect(out.error).toContain("outside the workspace");

  const itself = await refusal({ processId: process.pid });
  expect(itself.error).toContain("the bridge itself");
});

it("attaches to a C program by a launch.json processId written after it started, and refuses an older file", {
  timeout: 90_000,
}, async () => {
  const { child, match } = await started(join(root, "app"), [], { cwd: root, pattern: /ready (\d+)/ });
  const pid = Number(match[1]);
  expect(pid).toBe(child.pid);
  writeLaunchJson([{ name: "Attach C", type: "lldb", request: "attach", processId: pid }]);
  await client.data("setDebugBreakpoints", { file: "app.c", breakpoints: [{ line: 5 }] });
  const first = await client.data<Outcome>("startDebugging", { configName: "Attach C", timeoutMs: 30_000 });
  expect(first.stop?.stack[0]).toMatchObject({ file: "app.c", line: 5 });
  await client.data("setDebugBreakpoints", { file: "app.c", breakpoints: [] });
  await client.data("stopDebugging", {});
  await expect.poll(() => stateOf(pid), { timeout: 10_000 }).toMatch(/^[RS]$/);

  // The same file, as if written an hour before the program started (or shipped with the repository).
  const anHourAgo = new Date(Date.now() - 3_600_000);
  utimesSync(join(root, ".vscode/launch.json"), anHourAgo, anHourAgo);
  const stale = await refusal({ configName: "Attach C" });
  expect(stale.code).toBe("command_refused");
  expect(stale.error).toContain("written before that process started");

  // Written anew, but tracked by git: the repository's file, which a checkout or pull rewrites, is no consent.
  writeLaunchJson([{ name: "Attach C", type: "lldb", request: "attach", processId: pid }]);
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: root, stdio: "ignore" });
  git("init", "-q");
  git("add", ".vscode/launch.json");
  git("commit", "-q", "-m", "launch.json");
  try {
    const tracked = await refusal({ configName: "Attach C" });
    expect(tracked.code).toBe("command_refused");
    expect(tracked.error).toContain("in a .vscode/launch.json git tracks");
  } finally {
    rmSync(join(root, ".git"), { recursive: true, force: true });
  }
});

it("attaches to a headless delve by its port, and detaching leaves delve and the program running", { timeout: 90_000 }, async () => {
  const port = await freePort();
  const { child: dlv, match } = await started(
    "dlv",
    ["exec", "./goapp", "--headless", `--listen=127.0.0.1:${port}`, "--accept-multiclient", "--continue", "--api-version=2"],
    { cwd: root, pattern: /ready (\d+)/ },
  );
  writeLaunchJson([{ name: "Remote Go", type: "go", request: "attach", mode: "remote", host: "127.0.0.1", port }]);
  await client.data("setDebugBreakpoints", { file: "main.go", breakpoints: [{ line: 10 }] });
  const first = await client.data<Outcome>("startDebugging", { configName: "Remote Go", timeoutMs: 30_000 });
  expect(first.stop?.reason).toBe("breakpoint");
  expect(first.stop?.stack[0]).toMatchObject({ file: "main.go", line: 10 });
  await client.data("setDebugBreakpoints", { file: "main.go", breakpoints: [] });
  await client.data("stopDebugging", {});
  expect(running(dlv.pid ?? 0)).toBe(true);
  // delve runs the program in a process group of its own: it is ended here, not with delve's.
  const program = Number(match[1]);
  await expect.poll(() => stateOf(program), { timeout: 10_000 }).toMatch(/^[RS]$/);
  strays.push(program);
});

it("attaches to a C program waiting under lldb-server gdbserver by its port, and detaching leaves it running", {
  timeout: 90_000,
}, async () => {
  const port = await freePort();
  // lldb-server prints nothing when it listens: its socket is the signal.
  const stub = spawn("lldb-server", ["gdbserver", `127.0.0.1:${port}`, "--", "./app"], { cwd: root, stdio: "ignore", detached: true });
  children.push(stub);
  await expect.poll(() => processes?.listeningPorts(stub.pid ?? 0), { timeout: 30_000 }).toContain(port);
  writeLaunchJson([{ name: "Remote C", type: "lldb", request: "attach", program: "${workspaceFolder}/app", "gdb-remote-port": port }]);
  await client.data("setDebugBreakpoints", { file: "app.c", breakpoints: [{ line: 5 }] });
  const first = await client.data<Outcome>("startDebugging", { configName: "Remote C", timeoutMs: 30_000 });
  expect(first.stop?.reason, JSON.stringify(first)).toBe("breakpoint");
  expect(first.stop?.stack[0]).toMatchObject({ file: "app.c", line: 5 });
  // The program is lldb-server's child while lldb-server serves it.
  const pid = childOf(stub.pid ?? 0);
  expect(pid).toBeGreaterThan(0);
  await client.data("setDebugBreakpoints", { file: "app.c", breakpoints: [] });
  await client.data("stopDebugging", {});
  await expect.poll(() => stateOf(pid), { timeout: 10_000 }).toMatch(/^[RS]$/);
  strays.push(pid);
});
