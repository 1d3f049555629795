// The loop guard for commits made outside the bridge, both ways, in one bridge process with the real
// `claude` CLI (the model is the only fake): while a hook task runs, the user's own commit from a
// terminal (seen through the reflog, no tool call behind it) fires onGitCommit; the commit the hook
// task's Claude Code makes with its Bash tool (seen the same way) is held back as the task's own.
import { mkdtemp, mkdir, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_CLAUDE_BIN } from "../../helpers/claude-print.ts";
import { claudeEnv } from "../../helpers/claude-env.ts";
import { startFakeModelApi, type FakeModelApi } from "../../helpers/fake-model-api.ts";
import { gitFixture, type GitFixture } from "../../helpers/git-fixture.ts";
import { startBridgeProcess, type BridgeProcess } from "../../helpers/spawn-bridge.ts";

interface Entry {
  event?: string;
  source?: string;
  detail?: Record<string, unknown>;
}

let base: string;
let git: GitFixture;
let api: FakeModelApi;
let bridge: BridgeProcess;
let client: Client;
/** Opened by the test: the hook task's first model turn waits for it. */
let releaseTaskTurn: () => void = () => {};
const taskTurnReleased = new Promise<void>((resolve) => {
  releaseTaskTurn = resolve;
});

async function automationEntries(): Promise<Entry[]> {
  const result = await client.callTool({ name: "getActivityLog", arguments: { kind: "event", limit: 200 } });
  if (result.isError) throw new Error(`getActivityLog: ${JSON.stringify(result.content)}`);
  return (result.structuredContent as { entries: Entry[] }).entries.filter((e) => e.source === "automation");
}

/** Polls the activity log for an entry, bounded. */
async function until(what: string, match: (e: Entry) => boolean, timeoutMs = 30_000): Promise<Entry> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await automationEntries()).find(match);
    if (found !== undefined) return found;
    if (Date.now() > deadline) {
      const tasks = await client.callTool({ name: "listClaudeTasks", arguments: {} });
      const results = api.turns().flatMap((t) => t.messages.slice(-1).map((m) => JSON.stringify(m.content).slice(0, 600)));
      const seen = `${JSON.stringify(await automationEntries())}\n--- tasks ---\n${JSON.stringify(tasks.structuredContent)}\n--- last messages ---\n${results.join("\n")}`;
      throw new Error(`timed out waiting for ${what}\n--- automation ---\n${seen}\n--- bridge stderr ---\n${bridge.stderr().slice(-4000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
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
  const env = {
    ...(claudeEnv(git.env.HOME ?? base) as Record<string, string>),
    ...git.env,
    ANTHROPIC_BASE_URL: api.url,
    ANTHROPIC_API_KEY: "test-key",
  };
  const policy = join(base, "policy.json");
  await writeFile(
    policy,
    JSON.stringify({
      onCwdChanged: { prompt: "Now in {{newCwd}}. DONE-cwd", cooldownMs: 5000 },
      onGitCommit: { prompt: "Review commit {{hash}} ({{subject}}).", cooldownMs: 5000 },
    }),
  );
  bridge = await startBridgeProcess({
    workspace,
    configDir,
    args: [
      "--claude-driver",
      "subprocess",
      "--claude-binary",
      REPO_CLAUDE_BIN,
      "--automation-policy",
      policy,
      "--automation-concurrency",
      "2",
      "--tool-rate-limit",
      "10000",
    ],
    env,
  });
  client = new Client({ name: "automation-outside", version: "1" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(bridge.mcpUrl), { requestInit: { headers: { Authorization: `Bearer ${bridge.token}` } } }),
  );
}, 60_000);

afterAll(async () => {
  releaseTaskTurn();
  await client?.close();
  await bridge?.stop();
  await api?.close();
  if (base) await rm(base, { recursive: true, force: true });
});

describe("commits made outside the bridge while a hook task runs", () => {
  it("fires for the user's commit from a terminal and holds the one the task's Bash made", async () => {
    const notify = await fetch(`${bridge.url}/notify`, {
      method: "POST",
      headers: { authorization: `Bearer ${bridge.token}`, "content-type": "application/json" },
      body: JSON.stringify({ event: "CwdChanged", session_id: "user-session", new_cwd: join(bridge.workspace, "src") }),
    });
    const answer = (await notify.json()) as { decisions: { hook: string; decision: string; taskId?: string }[] };
    expect(answer.decisions).toMatchObject([{ hook: "onCwdChanged", decision: "fired" }]);
    const hookTask = String(answer.decisions[0]?.taskId);
    // The hook task is running: its Claude Code has asked the model and waits for the answer.
    const deadline = Date.now() + 60_000;
    while (!api.turns().some((t) => JSON.stringify(t.messages).includes("DONE-cwd"))) {
      if (Date.now() > deadline) throw new Error(`the hook task never reached the model\n${bridge.stderr().slice(-3000)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    git.git(bridge.workspace, "commit", "--quiet", "--allow-empty", "-m", "The user's own commit");
    const user = await until("the user's commit to be judged", (e) => e.detail?.hook === "onGitCommit");
    expect(user, JSON.stringify(user.detail)).toMatchObject({ event: "hook.fired" });

    releaseTaskTurn();
    const own = await until(
      "the task's commit to be judged",
      (e) => e.detail?.hook === "onGitCommit" && e.detail?.taskId !== user.detail?.taskId,
    );
    expect(git.git(bridge.workspace, "log", "-1", "--format=%s").trim()).toBe("hook-task-commit");
    expect(own).toMatchObject({ event: "hook.skipped" });
    expect(String(own.detail?.reason)).toMatch(new RegExp(`^loop guard: ${hookTask}, a hook's task, may have caused it: its Bash `));
  }, 180_000);
});
