// The Claude Code task orchestrator with the real `claude` CLI as its subprocess, pointed at the
// local stand-in for the Messages API (the model is the only fake): a task runs to its result, a
// cancel and a timeout leave no process of the task behind, and a second orchestrator on the same
// state directory (a bridge restart) reads the history back, the task that was running marked
// interrupted.
import { mkdtemp, readdir, readFile, realpath, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNodeRuntime } from "../../../runtime/node.ts";
import { createEventBus } from "../../../src/capabilities/events/event-bus.ts";
import type { ClaudeTask } from "../../../src/capabilities/claude/claude-tasks.ts";
import { openClaudeTasks } from "../../../src/services/claude-tasks/open-claude-tasks.ts";
import type { ClaudeOrchestrator } from "../../../src/services/claude-tasks/orchestrator.ts";
import { REPO_CLAUDE_BIN } from "../../helpers/claude-print.ts";
import { claudeEnv } from "../../helpers/claude-env.ts";
import { startFakeModelApi, type FakeModelApi } from "../../helpers/fake-model-api.ts";
import { makeWorkspace } from "../../helpers/spawn-bridge.ts";

/** Processes whose environment names the task: the task's whole tree, whatever it started. */
async function processesOfTask(taskId: string): Promise<number[]> {
  const found: number[] = [];
  for (const pid of (await readdir("/proc")).filter((n) => /^\d+$/.test(n))) {
    const environ = await readFile(`/proc/${pid}/environ`, "utf8").catch(() => "");
    const state = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => "");
    if (environ.split("\0").includes(`CLAUDE_IDE_BRIDGE_TASK_ID=${taskId}`) && state.slice(state.lastIndexOf(")") + 2)[0] !== "Z")
      found.push(Number(pid));
  }
  return found;
}

let api: FakeModelApi;
let home: string;
let workspace: string;
const stateDirs: string[] = [];
/** Requests whose prompt says HANG wait for this; released at the end. */
let releaseHung: () => void = () => {};
const hung = new Promise<void>((resolve) => {
  releaseHung = resolve;
});
const arrivals = new Map<string, () => void>();
const arrived = (marker: string) => new Promise<void>((resolve) => arrivals.set(marker, resolve));

async function open(stateDir: string): Promise<ClaudeOrchestrator> {
  const runtime = { ...createNodeRuntime(), env: { ...claudeEnv(home), ANTHROPIC_BASE_URL: api.url, ANTHROPIC_API_KEY: "test-key" } };
  return openClaudeTasks(runtime, {
    config: { claudeDriver: "subprocess", claudeBinary: REPO_CLAUDE_BIN, policyPath: undefined, concurrency: 2 },
    root: workspace,
    stateDir,
    passEnv: [],
    events: createEventBus(() => {}),
    log: { info: () => {}, warn: () => {} },
  });
}

async function finished(tasks: ClaudeOrchestrator, task: ClaudeTask): Promise<ClaudeTask> {
  const done = await tasks.settled(task.id, AbortSignal.timeout(90_000));
  if (done === undefined) throw new Error(`task ${task.id} vanished`);
  return done;
}

beforeAll(async () => {
  home = await realpath(await mkdtemp(join(tmpdir(), "claude-tasks-home-")));
  workspace = await makeWorkspace();
  api = await startFakeModelApi(async (request) => {
    const text = JSON.stringify(request.messages);
    const marker = /\b(DONE|HANG)-\w+/.exec(text)?.[0] ?? "none";
    arrivals.get(marker)?.();
    if (marker.startsWith("HANG")) await hung;
    return { text: `answer for ${marker}` };
  });
});

afterAll(async () => {
  releaseHung();
  await api?.close();
  for (const dir of [home, workspace, ...stateDirs]) if (dir) await rm(dir, { recursive: true, force: true });
});

describe("Claude Code tasks through the real CLI", () => {
  it("runs a task to its result, cancels one and times one out with no process left, and keeps the history across a restart", async () => {
    const stateDir = await mkdtemp(join(tmpdir(), "claude-tasks-state-"));
    stateDirs.push(stateDir);
    const tasks = await open(stateDir);

    const ok = tasks.submit({ prompt: "Reply with DONE-first please", timeoutMs: 90_000, trigger: "tool" });
    const lines: string[] = [];
    tasks.subscribe(ok.id, (line) => lines.push(line));
    const done = await finished(tasks, ok);
    expect(done, JSON.stringify(done)).toMatchObject({ status: "done", result: "answer for DONE-first" });
    expect(done.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(lines).toContain("answer for DONE-first");
    expect(lines.at(-1)).toMatch(/^\[result\] success/);

    // Cancel: once the model has the request, the task's whole tree is ended.
    const atModel = arrived("HANG-cancel");
    const cancelled = tasks.submit({ prompt: "HANG-cancel", timeoutMs: 90_000, trigger: "tool" });
    await atModel;
    expect((await processesOfTask(cancelled.id)).length).toBeGreaterThan(0);
    expect((await tasks.cancel(cancelled.id))?.status).toBe("cancelled");
    expect(await processesOfTask(cancelled.id)).toEqual([]);

    // Timeout: the same, by the task's own limit.
    const timedOut = await finished(tasks, tasks.submit({ prompt: "HANG-timeout", timeoutMs: 3000, trigger: "tool" }));
    expect(timedOut).toMatchObject({ status: "timeout", error: "stopped after its timeout of 3000 ms" });
    expect(await processesOfTask(timedOut.id)).toEqual([]);

    // A bridge that stops with a task running: the next one knows every task, that one interrupted.
    const atModelAgain = arrived("HANG-restart");
    const running = tasks.submit({ prompt: "HANG-restart", timeoutMs: 90_000, trigger: "onGitCommit" });
    await atModelAgain;
    await tasks.stop();
    expect(await processesOfTask(running.id)).toEqual([]);
    const files = await readdir(join(stateDir, "claude-tasks"));
    expect(files).toHaveLength(1);
    expect((await stat(join(stateDir, "claude-tasks", files[0] ?? ""))).mode & 0o777).toBe(0o600);

    const again = await open(stateDir);
    const history = again.list();
    expect(history.map((t) => [t.id, t.status])).toEqual([
      [running.id, "interrupted"],
      [timedOut.id, "timeout"],
      [cancelled.id, "cancelled"],
      [ok.id, "done"],
    ]);
    expect(again.get(ok.id)).toMatchObject({ result: "answer for DONE-first", sessionId: done.sessionId });
    expect(again.get(running.id)?.trigger).toBe("onGitCommit");
    await again.stop();
  }, 120_000);
});
