// Toolset state has an owner: watches belong to their session and end with it, and the bridge's
// stop ends every one. Four HTTP clients each open the per-session maximum of watches (which fills
// the bridge-wide cap), then end their sessions; a fifth client can watch at once. After stop, no
// OS watcher is left open. The bridge runs in-process on the real Node runtime, with fs.watch
// counted.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createNodeRuntime } from "../../../runtime/node.ts";
import { startBridge, type RunningBridge } from "../../../src/bridge.ts";
import { DEFAULT_CONFIG } from "../../../src/config/schema.ts";
import { silentLogger } from "../../../src/log.ts";
import type { Runtime } from "../../../src/ports/runtime.ts";
import { MAX_WATCHES, MAX_WATCHES_PER_SESSION } from "../../../src/tools/files/watch-store.ts";
import { tempWorkspaces, type TempWorkspaces } from "../../helpers/temp-workspace.ts";

const CLIENTS_TO_FILL = MAX_WATCHES / MAX_WATCHES_PER_SESSION;
let temp: TempWorkspaces;
let bridge: RunningBridge;
let openWatchers = 0;

function countingRuntime(base: Runtime, configDir: string): Runtime {
  return {
    ...base,
    env: { ...base.env, CLAUDE_CONFIG_DIR: configDir },
    fs: {
      ...base.fs,
      watch(path, onEvent, opts) {
        const watcher = base.fs.watch(path, onEvent, opts);
        openWatchers += 1;
        let closed = false;
        return {
          close() {
            if (!closed) openWatchers -= 1;
            closed = true;
            watcher.close();
          },
        };
      },
    },
  };
}

async function connect(): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(`${bridge.url}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${bridge.token}` } },
  });
  const client = new Client({ name: "state-lifecycle", version: "1" });
  await client.connect(transport);
  return { client, transport };
}

async function watch(client: Client, dir: string) {
  return client.callTool({ name: "watchFiles", arguments: { path: dir } });
}

beforeAll(async () => {
  temp = await tempWorkspaces("cib-state-");
  const root = await temp.make("ws", { "a.txt": "a\n" });
  for (let i = 0; i < MAX_WATCHES_PER_SESSION; i += 1) await mkdir(join(root, `d${i}`));
  const configDir = await temp.make("config", {});
  const runtime = countingRuntime(createNodeRuntime(), configDir);
  // A generous rate limit: the clients make their calls in a burst.
  bridge = await startBridge(
    runtime,
    { ...DEFAULT_CONFIG, workspace: root, toolRateLimit: 10_000, requestRateLimit: 10_000 },
    { logger: silentLogger },
  );
});

afterAll(async () => {
  await bridge?.stop();
  await temp?.remove();
});

it("releases a session's watches when it ends, and every watcher when the bridge stops", async () => {
  const clients = [];
  for (let c = 0; c < CLIENTS_TO_FILL; c += 1) {
    const connection = await connect();
    for (let i = 0; i < MAX_WATCHES_PER_SESSION; i += 1) expect((await watch(connection.client, `d${i}`)).isError).toBeFalsy();
    clients.push(connection);
  }
  expect(openWatchers).toBe(MAX_WATCHES);

  const fifth = await connect();
  const refused = await watch(fifth.client, "d0");
  expect(refused.isError).toBe(true);
  expect(JSON.stringify(refused.content)).toContain("Too many open watches");

  for (const { client, transport } of clients) {
    await transport.terminateSession();
    await client.close();
  }
  expect(openWatchers).toBe(0);
  expect((await watch(fifth.client, "d0")).isError).toBeFalsy();
  expect(openWatchers).toBe(1);

  await bridge.stop();
  expect(openWatchers).toBe(0);
  await fifth.client.close();
});
