// startDebugging attaching to a program the user started with its debugger listening on a loopback
// port, named by a .vscode/launch.json attach configuration: Node (--inspect) and Python (debugpy
// --listen) stop at a breakpoint, read a local, and stopping detaches, leaving the program running.
// A configuration attaching to another host, to a program outside the workspace (checked before
// attaching, for Python too), or to the bridge's own process id, is refused.
import type { ChildProcess } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { debugClient, type DebugClient } from "../helpers/debug-harness.ts";
import { freePort, startedProgram } from "../helpers/debuggee.ts";
import { running } from "../helpers/process-running.ts";
import { resultOf } from "../helpers/session-fixture.ts";
import { readToolError } from "../helpers/tool-error.ts";
import { tempWorkspaces, type TempWorkspaces } from "../helpers/temp-workspace.ts";

const NODE_PROGRAM = `let n = 0;
function tick() {
  n += 1;
  const label = "tick " + n;
  if (n === 1) console.log("ready");
  return label;
}
setInterval(tick, 20);
`;

const PYTHON_PROGRAM = `import time

n = 0
print("ready", flush=True)
while True:
    n += 1
    label = "tick %d" % n
    time.sleep(0.02)
`;

interface Outcome {
  state: string;
  stop?: { reason: string; stack: { file?: string; line: number }[]; locals?: { name: string; value: string }[] };
}

let temp: TempWorkspaces;
let root: string;
let client: DebugClient;
const children: ChildProcess[] = [];

/** Starts a program in the workspace (or `cwd`) and resolves once it printed `pattern`. */
function started(cmd: string, args: string[], want: { pattern: RegExp; cwd?: string }) {
  return startedProgram(cmd, args, { cwd: want.cwd ?? root, pattern: want.pattern, track: children });
}

let nodeProgram: ChildProcess;
let pythonProgram: ChildProcess;

beforeAll(async () => {
  temp = await tempWorkspaces("debug-attach-");
  root = await temp.make("ws", { "app.js": NODE_PROGRAM, "app.py": PYTHON_PROGRAM });
  const pythonPort = await freePort();
  // A program of another project of the user's, which a launch.json that came with the repository may name.
  const otherPythonPort = await freePort();
  const elsewhere = await temp.make("other-project", { "server.js": NODE_PROGRAM, "server.py": PYTHON_PROGRAM });
  const inspecting = { pattern: /ws:\/\/127\.0\.0\.1:(\d+)\// };
  const [node, python, other] = await Promise.all([
    started(process.execPath, ["--inspect=127.0.0.1:0", "app.js"], inspecting),
    started("/usr/bin/python3", ["-m", "debugpy", "--listen", `127.0.0.1:${pythonPort}`, "app.py"], { pattern: /ready/ }),
    started(process.execPath, ["--inspect=127.0.0.1:0", join(elsewhere, "server.js")], inspecting),
    started("/usr/bin/python3", ["-m", "debugpy", "--listen", `127.0.0.1:${otherPythonPort}`, "server.py"], {
      pattern: /ready/,
      cwd: elsewhere,
    }),
  ]);
  nodeProgram = node.child;
  pythonProgram = python.child;
  // The user's launch.json: the bridge's own tools cannot write .vscode/.
  const configurations = [
    { name: "Attach Node", type: "node", request: "attach", port: Number(node.match[1]) },
    { name: "Attach Python", type: "debugpy", request: "attach", connect: { host: "localhost", port: pythonPort } },
    { name: "The bridge", type: "node", request: "attach", processId: process.pid },
    { name: "Elsewhere", type: "node", request: "attach", address: "10.1.2.3", port: 9229 },
    { name: "Other project", type: "node", request: "attach", port: Number(other.match[1]) },
    { name: "Other Python", type: "debugpy", request: "attach", connect: { host: "127.0.0.1", port: otherPythonPort } },
  ];
  await temp.make("ws", { ".vscode/launch.json": JSON.stringify({ version: "0.2.0", configurations }) });
  client = await debugClient(root);
}, 60_000);

afterAll(async () => {
  for (const child of children) child.kill("SIGKILL");
  await temp.remove();
});

for (const [language, config, file, line] of [
  ["Node", "Attach Node", "app.js", 4],
  ["Python", "Attach Python", "app.py", 7],
] as const) {
  it(`attaches to a ${language} program on its loopback port, stops at a breakpoint, and detaches leaving it running`, {
    timeout: 60_000,
  }, async () => {
    await client.data("setDebugBreakpoints", { file, breakpoints: [{ line }] });
    const first = await client.data<Outcome>("startDebugging", { configName: config, timeoutMs: 30_000 });
    expect(first.state).toBe("stopped");
    expect(first.stop?.reason).toBe("breakpoint");
    expect(first.stop?.stack[0]).toMatchObject({ file, line });
    expect(Number(first.stop?.locals?.find((v) => v.name === "n")?.value ?? (await evaluated("n")))).toBeGreaterThan(0);
    await client.data("setDebugBreakpoints", { file, breakpoints: [] });
    const stopped = await client.data<{ wasRunning: boolean }>("stopDebugging", {});
    expect(stopped.wasRunning).toBe(true);
    const program = language === "Node" ? nodeProgram : pythonProgram;
    expect(program.exitCode).toBeNull();
    expect(running(program.pid ?? 0)).toBe(true);
  });
}

async function evaluated(expression: string): Promise<string> {
  return (await client.data<{ result: string }>("evaluateInDebugger", { expression })).result;
}

it("refuses an attach configuration naming the bridge's process id, another host, or a program outside the workspace", async () => {
  const refusal = async (configName: string) =>
    readToolError(resultOf(await client.fixture.call("tools/call", { name: "startDebugging", arguments: { configName } })));
  const byPid = await refusal("The bridge");
  expect(byPid.code).toBe("command_refused");
  expect(byPid.error).toContain("the bridge itself");
  const elsewhere = await refusal("Elsewhere");
  expect(elsewhere.code).toBe("command_refused");
  expect(elsewhere.error).toContain("10.1.2.3");
  const other = await refusal("Other project");
  expect(other.code).toBe("command_refused");
  expect(other.error).toContain("outside the workspace");
  // Refused before attaching: the process listening on the port (debugpy's adapter) and the program run elsewhere.
  const otherPython = await refusal("Other Python");
  expect(otherPython.code).toBe("command_refused");
  expect(otherPython.error).toMatch(/The program on 127\.0\.0\.1:\d+ \(process \d+\) runs in .*other-project, outside the workspace/);
});
