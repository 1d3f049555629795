// A bridge process with automation on, for the tests that run hook tasks through the real `claude`
// CLI against the local stand-in for the model's API: the policy written to a file, the CLI's
// environment (a throwaway HOME, git's test config), an SDK client, and bounded polls of the
// activity log's automation entries.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { REPO_CLAUDE_BIN } from "./claude-print.ts";
import { claudeEnv } from "./claude-env.ts";
import type { FakeModelApi } from "./fake-model-api.ts";
import { startBridgeProcess, type BridgeProcess } from "./spawn-bridge.ts";

export interface AutomationEntry {
  event?: string;
  source?: string;
  detail?: Record<string, unknown>;
}

export interface AutomationBridge {
  bridge: BridgeProcess;
  client: Client;
  /** The environment the bridge (and so its tasks) got. */
  env: Record<string, string>;
  /** A tool's structured answer; an error result throws with its text. */
  call<T>(name: string, args: Record<string, unknown>): Promise<T>;
  /** The activity log's automation entries, newest first. */
  entries(): Promise<AutomationEntry[]>;
  /** Polls `probe` every 200 ms until it answers, bounded; the timeout names what was awaited and shows the bridge's stderr. */
  until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs?: number): Promise<T>;
  stop(): Promise<void>;
}

export async function startAutomationBridge(opts: {
  /** A temporary folder of the test's: the policy file goes there. */
  base: string;
  workspace: string;
  gitEnv: Record<string, string>;
  api: FakeModelApi;
  policy: Record<string, unknown>;
  concurrency: number;
  /** CLAUDE_CONFIG_DIR for the bridge and its tasks (the user's Claude Code settings). */
  configDir?: string;
}): Promise<AutomationBridge> {
  const env = {
    ...(claudeEnv(opts.gitEnv.HOME ?? opts.base) as Record<string, string>),
    ...opts.gitEnv,
    ANTHROPIC_BASE_URL: opts.api.url,
    ANTHROPIC_API_KEY: "test-key",
  };
  const policy = join(opts.base, "policy.json");
  await writeFile(policy, JSON.stringify(opts.policy));
  const bridge = await startBridgeProcess({
    workspace: opts.workspace,
    ...(opts.configDir === undefined ? {} : { configDir: opts.configDir }),
    // The polls below call a tool five times a second.
    args: [
      ...["--claude-driver", "subprocess", "--claude-binary", REPO_CLAUDE_BIN, "--automation-policy", policy],
      ...["--automation-concurrency", String(opts.concurrency), "--tool-rate-limit", "10000"],
    ],
    env,
  });
  const client = new Client({ name: "automation-test", version: "1" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(bridge.mcpUrl), { requestInit: { headers: { Authorization: `Bearer ${bridge.token}` } } }),
  );
  const call = async <T>(name: string, args: Record<string, unknown>): Promise<T> => {
    const result = await client.callTool({ name, arguments: args });
    if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.content)}`);
    return result.structuredContent as T;
  };
  return {
    bridge,
    client,
    env,
    call,
    entries: async () =>
      (await call<{ entries: AutomationEntry[] }>("getActivityLog", { kind: "event", limit: 200 })).entries.filter(
        (e) => e.source === "automation",
      ),
    async until(what, probe, timeoutMs = 90_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = await probe();
        if (found !== undefined) return found;
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n--- bridge stderr ---\n${bridge.stderr().slice(-4000)}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    },
    async stop() {
      await client.close();
      await bridge.stop();
    },
  };
}
