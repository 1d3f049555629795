// The debugger through the extension in a REAL VS Code (the one code-server of vscode-ide.test.ts),
// under VS Code's built-in js-debug: a launch configuration of .vscode/launch.json started by name;
// a conditional breakpoint, a logpoint (its lines in the program's output) and a hit count; step
// out, step in; a pause in a busy loop, where it stopped, and the loop ended from the debugger; the
// session's start and end pushed by the extension to the bridge, where automation's onDebugSession
// hooks hear them and start a task each (the real Claude Code CLI against a local stand-in for the
// model's API); then a program with a breakpoint hit, a variable read, an expression, a step, the
// end, and a breakpoint on a line with no code reported unverified.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { REPO_CLAUDE_BIN } from "../../helpers/claude-print.ts";
import { claudeEnv } from "../../helpers/claude-env.ts";
import { startFakeModelApi, type FakeModelApi } from "../../helpers/fake-model-api.ts";
import { type VSCodeE2E, waitUntil } from "../../helpers/vscode-e2e.ts";

export const DEBUG_FILES: Record<string, string> = {
  // A breakpoint in add, and a last line with no code.
  "dbg.js":
    'function add(a, b) {\n  const sum = a + b;\n  return sum;\n}\nconst total = add(2, 3);\nconsole.log("total=" + total);\n\n// the end\n',
  // Line 2 takes a logpoint, line 3 a condition, line 7 a hit count; line 12 spins until told to stop.
  "loop.js": [
    "function tick(i) {",
    "  const doubled = i * 2;",
    "  return doubled;",
    "}",
    "let total = 0;",
    "for (let i = 0; i < 5; i++) {",
    "  total += tick(i);",
    "}",
    'console.log("total=" + total);',
    "globalThis.spinning = true;",
    "let spins = 0;",
    "while (globalThis.spinning) spins++;",
    'console.log("spun " + (spins > 0));',
    "",
  ].join("\n"),
  ".vscode/launch.json": JSON.stringify({
    version: "0.2.0",
    configurations: [{ type: "node", request: "launch", name: "Loop", program: "${workspaceFolder}/loop.js" }],
  }),
};

/**
 * Automation's hooks on VS Code's debug sessions: one per phase (the split name onDebugSessionEnd is
 * the policy's only way to hear both). Two tasks an hour: the first session's start and end.
 */
export const DEBUG_EVENTS_POLICY = {
  maxTasksPerHour: 2,
  onDebugSession: { phase: "start", cooldownMs: 5000, prompt: "Debug {{phase}} via {{via}}, exit code [{{exitCode}}]:{{session}}{{name}}" },
  onDebugSessionEnd: { cooldownMs: 5000, prompt: "Debug {{phase}} via {{via}}, exit code [{{exitCode}}]:{{session}}{{name}}" },
};

export interface ClaudeStandIn {
  /** The bridge's environment for the CLI: a throwaway HOME, the stand-in's URL. */
  env(): Record<string, string>;
  api(): FakeModelApi;
}

/** The model's API for the hooks' tasks, up before the bridge starts (call it before useVSCodeE2E). */
export function useClaudeStandIn(): ClaudeStandIn {
  let api: FakeModelApi | undefined;
  let home: string | undefined;
  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), "vscode-e2e-claude-"));
    api = await startFakeModelApi(() => ({ text: "Noted." }));
  });
  afterAll(async () => {
    await api?.close();
    if (home !== undefined) await rm(home, { recursive: true, force: true });
  });
  return {
    env: () => ({
      ...(claudeEnv(home ?? "") as Record<string, string>),
      ANTHROPIC_BASE_URL: api?.url ?? "",
      ANTHROPIC_API_KEY: "test-key",
    }),
    api: () => {
      if (api === undefined) throw new Error("the model API stand-in is not up");
      return api;
    },
  };
}

export const DEBUG_BRIDGE_ARGS = ["--claude-driver", "subprocess", "--claude-binary", REPO_CLAUDE_BIN];

interface Local {
  name: string;
  value: string;
}

/** Registers the debugger cases, in order, on the file's VS Code. */
export function debuggerCases(vs: VSCodeE2E, claude: ClaudeStandIn): void {
  let loopSession = "";
  it("the debugger through VS Code: a launch configuration by name; a condition, a logpoint, a hit count; step out and in; a pause in a busy loop", async () => {
    const set = await vs.data("setDebugBreakpoints", {
      file: "loop.js",
      breakpoints: [
        { text: "const doubled", logMessage: "tick {i}" },
        { text: "return doubled", condition: "i === 3" },
        { text: "total += tick(i)", hitCondition: "5" },
      ],
    });
    expect(set.breakpoints.map((b: { line: number; status: string }) => [b.line, b.status])).toEqual([
      [2, "pending"],
      [3, "pending"],
      [7, "pending"],
    ]);
    const started = await vs.call("startDebugging", { configName: "Loop", timeoutMs: 60_000 });
    expect(started._meta?.["claude-ide-bridge/backend"]).toBe("extension");
    // biome-ignore lint/suspicious/noExplicitAny: the e2e reads tool answers loosely
    const start = started.structuredContent as any;
    loopSession = start.sessionId;
    // The condition held at the fourth call only; the logpoint printed at every call and never stopped.
    expect(start).toMatchObject({ state: "stopped", program: "Loop", stop: { reason: "breakpoint" } });
    expect(start.stop.stack[0]).toMatchObject({ name: expect.stringMatching(/\btick$/), file: "loop.js", line: 3 });
    expect(start.stop.locals).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: "i", value: "3" }),
        expect.objectContaining({ name: "doubled", value: "6" }),
      ]),
    );
    expect(start.breakpoints).toEqual([
      expect.objectContaining({ file: "loop.js", line: 2 }),
      expect.objectContaining({ file: "loop.js", line: 3, status: "verified" }),
      expect.objectContaining({ file: "loop.js", line: 7 }),
    ]);
    const output = async () => vs.text("getDebugOutput", { sessionId: loopSession });
    await waitUntil("the logpoint's lines", async () => (await output()).includes("tick 3"), 30_000);
    expect(await output()).toMatch(/\ntick 0\ntick 1\ntick 2\ntick 3(\n|$)/);
    expect(await output()).not.toContain("tick 4");

    const out = await vs.data("debugStepOut", {});
    expect(out).toMatchObject({ state: "stopped", stop: { reason: "step" } });
    // Back in the caller: V8 stops next at the loop's update (line 6), once the call's value is added to total.
    expect(out.stop.stack[0]).toMatchObject({ name: expect.not.stringMatching(/\btick$/), file: "loop.js", line: 6 });
    // Line 7's fifth hit (i = 4): the hit count, not the condition (which no longer holds), stopped it.
    const hit = await vs.data("debugContinue", {});
    expect(hit).toMatchObject({ state: "stopped", stop: { reason: "breakpoint" } });
    expect(hit.stop.stack[0]).toMatchObject({ file: "loop.js", line: 7 });
    // The loop's block scope is the frame's first.
    expect(hit.stop.locals as Local[]).toEqual(expect.arrayContaining([expect.objectContaining({ name: "i", value: "4" })]));
    expect(await vs.data("evaluateInDebugger", { expression: "total" })).toMatchObject({ result: "12" });
    const into = await vs.data("debugStepIn", {});
    expect(into).toMatchObject({ state: "stopped", stop: { reason: "step" } });
    expect(into.stop.stack[0]).toMatchObject({ name: expect.stringMatching(/\btick$/), file: "loop.js", line: 2 });
    expect(into.stop.locals as Local[]).toEqual(expect.arrayContaining([expect.objectContaining({ name: "i", value: "4" })]));

    // No breakpoints left: the program finishes its loop and spins; the shortest wait answers that it runs.
    expect((await vs.data("setDebugBreakpoints", { file: "loop.js", breakpoints: [] })).breakpoints).toEqual([]);
    expect(await vs.data("debugContinue", { timeoutMs: 100 })).toMatchObject({ sessionId: loopSession, state: "running" });
    await waitUntil("the loop's total", async () => (await output()).includes("total=20"), 30_000);
    const paused = await vs.data("debugPause", {});
    expect(paused).toMatchObject({ state: "stopped", stop: { reason: "pause" } });
    expect(paused.stop.stack[0]).toMatchObject({ file: "loop.js", line: 12 });
    expect(await vs.data("evaluateInDebugger", { expression: "spins > 0" })).toMatchObject({ result: "true" });
    // Told to stop spinning from the debugger, the program ends by itself.
    expect(await vs.data("evaluateInDebugger", { expression: "globalThis.spinning = false" })).toMatchObject({ result: "false" });
    const ended = await vs.data("debugContinue", { timeoutMs: 60_000 });
    expect(ended).toMatchObject({ sessionId: loopSession, state: "ended" });
    expect(await output()).toMatch(/total=20\n[\s\S]*spun true/);

    // The extension pushed the session's start and end; the bridge's onDebugSession hooks each started a task.
    const exit = ended.exitCode === undefined ? "" : String(ended.exitCode);
    let prompts: string[] = [];
    await waitUntil(
      "the end hook's task",
      async () => {
        const tasks = (await vs.data("listClaudeTasks", {})).tasks as { trigger: string; prompt: string }[];
        prompts = tasks.filter((t) => t.trigger === "onDebugSession").map((t) => t.prompt);
        return prompts.length === 2;
      },
      30_000,
    );
    expect(prompts.map((p) => p.split(":")[0])).toEqual([
      `Debug end via vscode, exit code [${exit}]`,
      "Debug start via vscode, exit code []",
    ]);
  }, 240_000);

  it("the debugger through VS Code's js-debug: a breakpoint hit, a variable read, an expression, a step, the end", async () => {
    const setResult = await vs.mcp.callTool({
      name: "setDebugBreakpoints",
      arguments: { file: "dbg.js", breakpoints: [{ text: "return sum" }, { line: 8 }] },
    });
    // VS Code answered (route-call.ts names the backend); when not, what the bridge said and logged.
    const answeredBy = (r: typeof setResult) =>
      r._meta?.["claude-ide-bridge/backend"] === "extension" ? "extension" : `${JSON.stringify(r)}\n${vs.bridge.stderr().slice(-4000)}`;
    expect(answeredBy(setResult)).toBe("extension");
    // biome-ignore lint/suspicious/noExplicitAny: the e2e reads tool answers loosely
    const set = setResult.structuredContent as any;
    expect(set.breakpoints).toEqual([
      { file: "dbg.js", line: 3, status: "pending" },
      { file: "dbg.js", line: 8, status: "pending" },
    ]);
    const started = await vs.mcp.callTool({ name: "startDebugging", arguments: { program: "dbg.js", timeoutMs: 60_000 } });
    expect(answeredBy(started)).toBe("extension");
    // biome-ignore lint/suspicious/noExplicitAny: the e2e reads tool answers loosely
    const start = started.structuredContent as any;
    expect(start).toMatchObject({ state: "stopped", sessionId: expect.stringMatching(/^vscode-\d+$/), stop: { reason: "breakpoint" } });
    expect(start.stop.stack[0]).toMatchObject({ name: expect.stringMatching(/\badd$/), file: "dbg.js", line: 3 });
    expect(start.stop.locals).toEqual(expect.arrayContaining([expect.objectContaining({ name: "sum", value: "5" })]));
    expect(start.breakpoints).toEqual(
      expect.arrayContaining([expect.objectContaining({ file: "dbg.js", line: 3 }), expect.objectContaining({ file: "dbg.js", line: 8 })]),
    );
    // Set again while the program runs: js-debug answers for the loaded script. Line 7 (blank) it leaves
    // unbound. Line 8, a comment after the last statement, it verifies, and its own breakpoint locations
    // (which the extension checks a verified line against, test/unit/extension/breakpoint-truth.test.ts)
    // list it: V8's end-of-script return is there, and the program does pause on it.
    const again = await vs.data("setDebugBreakpoints", { file: "dbg.js", breakpoints: [{ text: "return sum" }, { line: 7 }, { line: 8 }] });
    expect(again.breakpoints).toEqual([
      expect.objectContaining({ file: "dbg.js", line: 3, status: "verified" }),
      expect.objectContaining({ file: "dbg.js", line: 7, status: "unverified", message: expect.any(String) }),
      expect.objectContaining({ file: "dbg.js", line: 8, status: "verified" }),
    ]);
    // js-debug takes no function breakpoints (VS Code does not send it any): said, not left pending.
    expect((await vs.data("setDebugBreakpoints", { functions: [{ name: "add" }] })).breakpoints).toEqual([
      { function: "add", status: "unverified", message: expect.stringMatching(/node debugger does not support function breakpoints/) },
    ]);
    expect((await vs.data("setDebugBreakpoints", { functions: [] })).breakpoints).toEqual([]);
    const state = await vs.data("getDebugState", {});
    expect(state).toMatchObject({ sessionId: start.sessionId, state: "stopped" });
    expect(state.stack[0]).toMatchObject({ file: "dbg.js", line: 3 });
    const locals = state.scopes.flatMap((s: { variables: { name: string; value: string }[] }) => s.variables);
    expect(locals).toEqual(expect.arrayContaining([expect.objectContaining({ name: "a", value: "2" })]));
    expect(await vs.data("evaluateInDebugger", { expression: "a * 10 + sum" })).toMatchObject({ result: "25", type: "number" });
    const stepped = await vs.data("debugStepOver", {});
    expect(stepped).toMatchObject({ state: "stopped", stop: { reason: "step" } });
    expect(stepped.stop.stack[0].line).not.toBe(3);
    // Cleared, so the run goes to the end (js-debug bound line 8 to the script's end, where it would stop).
    expect((await vs.data("setDebugBreakpoints", { file: "dbg.js", breakpoints: [] })).breakpoints).toEqual([]);
    const ended = await vs.data("debugContinue", { timeoutMs: 60_000 });
    expect(ended).toMatchObject({ sessionId: start.sessionId, state: "ended" });
    expect(await vs.text("getDebugOutput", { sessionId: start.sessionId })).toMatch(/total=5/);
    const caps = await vs.data("getToolCapabilities");
    expect(caps.fallback).not.toContain("startDebugging");
  }, 240_000);

  it("automation's tasks got the session's id and launch configuration (what the model was shown)", async () => {
    // The ids and names are the workspace's words: they reach the model fenced as data, past the tasks' previews.
    const shown = (phase: string) =>
      claude
        .api()
        .turns()
        .map((t) => JSON.stringify(t.messages))
        .find((m) => m.includes(`Debug ${phase} via vscode`));
    await waitUntil("both tasks to reach the model", async () => shown("start") !== undefined && shown("end") !== undefined, 120_000);
    for (const phase of ["start", "end"]) {
      expect(shown(phase)).toContain(loopSession);
      // JSON-quoted: the fence's quotes and line breaks are escaped.
      expect(shown(phase)).toMatch(/source=\\"name\\">\\n[^<]*\\nLoop\\n/);
    }
  }, 150_000);
}
