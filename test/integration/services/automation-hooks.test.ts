// The automation hooks end to end, in one bridge process: the real `claude` CLI as the task's
// subprocess, pointed at the local stand-in for the Messages API (the model is the only fake), a
// real git repository, and Claude Code's own hooks written by `init --hooks`. A commit through
// gitCommit fires onGitCommit and its task runs to completion; inside that task Claude Code loads
// CLAUDE.md, its InstructionsLoaded hook runs `claude-ide-bridge notify`, and the loop guard skips
// it as the task's own; a notify from outside any task (a user's session) fires its hook (its task
// is ended with the bridge).
import { execFile } from "node:child_process";
import { mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAutomationBridge, type AutomationBridge } from "../../helpers/automation-bridge.ts";
import { startFakeModelApi, type FakeModelApi } from "../../helpers/fake-model-api.ts";
import { gitFixture } from "../../helpers/git-fixture.ts";
import { BRIDGE_BIN } from "../../helpers/spawn-bridge.ts";

interface Task {
  taskId: string;
  status: string;
  trigger: string;
  result?: string;
}

let base: string;
let api: FakeModelApi;
let auto: AutomationBridge;
let env: Record<string, string>;

function runBridgeCli(args: string[], input: string, cwd: string): Promise<{ code: number; stderr: string; stdout: string }> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [BRIDGE_BIN, ...args], { cwd, env, timeout: 30_000 }, (err, stdout, stderr) =>
      resolve({ code: typeof err?.code === "number" ? err.code : err ? 1 : 0, stdout, stderr }),
    );
    child.stdin?.end(input);
  });
}

const call = <T>(name: string, args: Record<string, unknown>) => auto.call<T>(name, args);
const tasks = async () => (await call<{ tasks: Task[] }>("listClaudeTasks", {})).tasks;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "automation-hooks-")));
  const git = await gitFixture(base);
  const workspace = await git.repo(join(base, "repo"), {
    "README.md": "# demo\n",
    "CLAUDE.md": "# Demo project\nKeep answers short.\n",
    "src/app.ts": "export const answer = 42;\n",
  });
  api = await startFakeModelApi(async (request) => {
    const text = JSON.stringify(request.messages);
    return { text: /DONE-\w+/.exec(text) ? `reviewed ${/DONE-\w+/.exec(text)?.[0]}` : "nothing to do" };
  });
  auto = await startAutomationBridge({
    base,
    workspace,
    gitEnv: git.env,
    api,
    concurrency: 3,
    policy: {
      onGitCommit: { prompt: "Review commit {{hash}} ({{subject}}). DONE-commit", cooldownMs: 5000 },
      onInstructionsLoaded: { prompt: "Instructions {{file}} loaded. DONE-instructions", cooldownMs: 5000 },
      onCwdChanged: { prompt: "Now in {{newCwd}}. DONE-cwd", cooldownMs: 5000 },
    },
  });
  env = { ...auto.env, CLAUDE_CONFIG_DIR: auto.bridge.configDir };
}, 60_000);

afterAll(async () => {
  await auto?.stop();
  await api?.close();
  if (base) await rm(base, { recursive: true, force: true });
});

describe("automation hooks through a bridge process and the real claude CLI", () => {
  it("init --hooks, a commit that runs a task to completion, the task's own hook event skipped, and a user's notify fired", async () => {
    const { bridge, until } = auto;
    const automationEntries = () => auto.entries();
    const init = await runBridgeCli(["init", "--hooks", "--workspace", bridge.workspace], "", bridge.workspace);
    expect(init.code, init.stderr).toBe(0);
    const settings = JSON.parse(await readFile(join(bridge.workspace, ".claude", "settings.json"), "utf8"));
    expect(settings.hooks.InstructionsLoaded[0].hooks[0].command).toMatch(/claude-ide-bridge\.js notify InstructionsLoaded$/);

    await writeFile(join(bridge.workspace, "src", "app.ts"), "export const answer = 43;\n");
    const commit = await call<{ hash: string }>("gitCommit", { message: "Bump the answer", files: ["src/app.ts"] });
    const done = await until("the onGitCommit task to finish", async () => {
      const task = (await tasks()).find((t) => t.trigger === "onGitCommit");
      return task !== undefined && task.status !== "pending" && task.status !== "running" ? task : undefined;
    });
    expect(done, bridge.stderr().slice(-3000)).toMatchObject({ status: "done" });
    expect(await call("getClaudeTaskStatus", { taskId: done.taskId })).toMatchObject({ result: "reviewed DONE-commit" });
    const prompt = JSON.stringify(api.turns().map((t) => t.messages));
    expect(prompt).toContain(commit.hash);
    expect(prompt).toMatch(/untrusted-data id=\\"[0-9a-f]{12}\\" source=\\"subject\\">[\s\S]*Bump the answer/);

    // Inside the task Claude Code loaded CLAUDE.md and ran the InstructionsLoaded hook: its own event.
    const skipped = await until("the task's InstructionsLoaded to be judged", async () =>
      (await automationEntries()).find((e) => e.event === "hook.skipped" && e.detail?.hook === "onInstructionsLoaded"),
    );
    expect(skipped.detail?.reason).toBe(`loop guard: caused by ${done.taskId}, a task a hook started`);
    const received = (await automationEntries()).find((e) => e.event === "notify.received" && e.detail?.event === "InstructionsLoaded");
    expect(received?.detail).toMatchObject({ hooks: "onInstructionsLoaded", fromTask: done.taskId });

    // A user's session (no task id) changes directory: the hook fires and its task completes.
    const hookInput = {
      session_id: "user-session",
      cwd: bridge.workspace,
      hook_event_name: "CwdChanged",
      old_cwd: bridge.workspace,
      new_cwd: join(bridge.workspace, "src"),
    };
    const notify = await runBridgeCli(["notify", "CwdChanged"], JSON.stringify(hookInput), bridge.workspace);
    expect(notify, notify.stderr).toMatchObject({ code: 0, stdout: "" });
    // Fired while nothing of the user's own is running; the task itself is stopped with the bridge.
    const fired = await until("onCwdChanged to fire", async () =>
      (await automationEntries()).find((e) => e.event === "hook.fired" && e.detail?.hook === "onCwdChanged"),
    );
    expect(fired.detail).toMatchObject({ event: "claude.CwdChanged", taskId: expect.stringMatching(/^task-/) });

    // No bridge for a directory: notify says so and still exits 0, so Claude Code is never held up.
    const nowhere = await runBridgeCli(["notify", "CwdChanged", "--workspace", base], "{}", base);
    expect(nowhere.code).toBe(0);
    expect(nowhere.stderr).toMatch(/no running bridge for .*; CwdChanged was not sent/);
  }, 240_000);
});
