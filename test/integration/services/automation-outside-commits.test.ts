// The loop guard for commits made outside the bridge, both ways, in one bridge process with the real
// `claude` CLI (the model is the only fake): while a hook task runs, the user's own commit from a
// terminal (seen through the reflog, no tool call behind it) fires onGitCommit; the commit the hook
// task's Claude Code makes with its Bash tool (seen the same way) is held back as the task's own.
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAutomationBridge, type AutomationBridge, type AutomationEntry } from "../../helpers/automation-bridge.ts";
import { startFakeModelApi, type FakeModelApi } from "../../helpers/fake-model-api.ts";
import { gitFixture, type GitFixture } from "../../helpers/git-fixture.ts";

let base: string;
let git: GitFixture;
let api: FakeModelApi;
let auto: AutomationBridge;
/** Opened by the test: the hook task's first model turn waits for it. */
let releaseTaskTurn: () => void = () => {};
const taskTurnReleased = new Promise<void>((resolve) => {
  releaseTaskTurn = resolve;
});

/** The first automation entry that matches, once there is one (bounded); a timeout shows the tasks and what the model saw last. */
async function judged(what: string, match: (e: AutomationEntry) => boolean): Promise<AutomationEntry> {
  try {
    return await auto.until(what, async () => (await auto.entries()).find(match), 60_000);
  } catch (err) {
    const tasks = await auto.call("listClaudeTasks", {});
    const last = api.turns().map((t) => JSON.stringify(t.messages.at(-1)?.content).slice(0, 400));
    throw new Error(`${String(err)}\n--- tasks ---\n${JSON.stringify(tasks)}\n--- last messages ---\n${last.join("\n")}`);
  }
}

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "automation-outside-")));
  git = await gitFixture(base);
  const workspace = await git.repo(join(base, "repo"), { "README.md": "# demo\n", "src/app.ts": "export const answer = 42;\n" });
  // The task's Claude Code may run git commit without asking: the user's own permission (a project's
  // .claude/settings.json counts only once the workspace is trusted interactively).
  const configDir = join(base, "claude-config");
  await mkdir(configDir);
  await writeFile(join(configDir, "settings.json"), JSON.stringify({ permissions: { allow: ["Bash(git commit:*)"] } }));
  api = await startFakeModelApi(async (request) => {
    const text = JSON.stringify(request.messages);
    if (!text.includes("DONE-cwd")) return { text: "nothing to do" };
    if (text.includes("tool_result")) return { text: "committed" };
    await taskTurnReleased;
    return {
      toolUses: [{ name: "Bash", input: { command: "git commit --allow-empty --message=hook-task-commit", description: "Commit" } }],
    };
  });
  auto = await startAutomationBridge({
    base,
    workspace,
    gitEnv: git.env,
    api,
    configDir,
    concurrency: 2,
    policy: {
      onCwdChanged: { prompt: "Now in {{newCwd}}. DONE-cwd", cooldownMs: 5000 },
      onGitCommit: { prompt: "Review commit {{hash}} ({{subject}}).", cooldownMs: 5000 },
    },
  });
}, 60_000);

afterAll(async () => {
  releaseTaskTurn();
  await auto?.stop();
  await api?.close();
  if (base) await rm(base, { recursive: true, force: true });
});

describe("commits made outside the bridge while a hook task runs", () => {
  it("fires for the user's commit from a terminal and holds the one the task's Bash made", async () => {
    const { bridge } = auto;
    const notify = await fetch(`${bridge.url}/notify`, {
      method: "POST",
      headers: { authorization: `Bearer ${bridge.token}`, "content-type": "application/json" },
      body: JSON.stringify({ event: "CwdChanged", session_id: "user-session", new_cwd: join(bridge.workspace, "src") }),
    });
    const answer = (await notify.json()) as { decisions: { hook: string; decision: string; taskId?: string }[] };
    expect(answer.decisions).toMatchObject([{ hook: "onCwdChanged", decision: "fired" }]);
    const hookTask = String(answer.decisions[0]?.taskId);
    // The hook task is running: its Claude Code has asked the model and waits for the answer.
    await auto.until("the hook task to ask the model", async () =>
      api.turns().some((t) => JSON.stringify(t.messages).includes("DONE-cwd")) ? true : undefined,
    );

    git.git(bridge.workspace, "commit", "--quiet", "--allow-empty", "-m", "The user's own commit");
    const user = await judged("the user's commit to be judged", (e) => e.detail?.hook === "onGitCommit");
    expect(user, JSON.stringify(user.detail)).toMatchObject({ event: "hook.fired" });

    releaseTaskTurn();
    const own = await judged(
      "the task's commit to be judged",
      (e) => e.detail?.hook === "onGitCommit" && e.detail?.taskId !== user.detail?.taskId,
    );
    expect(git.git(bridge.workspace, "log", "-1", "--format=%s").trim()).toBe("hook-task-commit");
    expect(own).toMatchObject({ event: "hook.skipped" });
    expect(String(own.detail?.reason)).toMatch(new RegExp(`^loop guard: ${hookTask}, a hook's task, may have caused it: its Bash `));
  }, 180_000);
});
