// The Runtime for Node >= 20: the only place (with runtime/node/ and the node: helpers of runtime/shared/) that knows it runs on Node.
import { upgradeWebSocket } from "@hono/node-server";
import { WebSocket } from "ws";
import { nodeServe } from "./node/serve.ts";
import { nodeSpawn, nodeWhich } from "./shared/spawn.ts";
import { sharedMembers } from "./shared/compat.ts";
import { languageServers } from "./lsp/launcher.ts";
import type { Runtime } from "../src/ports/runtime.ts";
import { createPluginImporter } from "./shared/plugin-import.ts";
import { startNodePluginWorker } from "./node/plugin-worker.ts";
import { webSocketConnector, type WebSocketClass } from "./shared/websocket-client.ts";
import { shutdown } from "./shared/shutdown.ts";
import { runCli } from "./cli/cli.ts";

export { shutdown };

export interface NodeRuntimeOptions {
  /** WebSocket heartbeat period (default 30 s); tests shorten it. */
  pingIntervalMs?: number;
}

export function createNodeRuntime(options: NodeRuntimeOptions = {}): Runtime {
  const env: Readonly<Record<string, string | undefined>> = Object.freeze({ ...process.env });
  const pingIntervalMs = options.pingIntervalMs ?? 30_000;
  return {
    name: "node",
    serve: (app, opts) => nodeServe(app, opts, { pingIntervalMs }),
    upgradeWebSocket,
    webSocketInfo: {
      // `raw` is the ws socket on this adapter; anything else has nothing queued that we can see.
      bufferedAmount: (ws) => (ws.raw instanceof WebSocket ? ws.raw.bufferedAmount : 0),
    },
    spawn: nodeSpawn,
    languageServers: languageServers(nodeSpawn),
    which: (cmd) => nodeWhich(cmd, env),
    ...sharedMembers(env),
    plugins: createPluginImporter({
      // Relative to this file, which sits beside the bundle in dist/runtime/ (scripts/bundle.mjs copies the bootstrap there).
      startWorker: (events, opts) => startNodePluginWorker(new URL("./shared/plugin-worker.mjs", import.meta.url), events, opts),
      memoryLimit: "enforced",
    }),
    // Node 20 has no global WebSocket: ws is already the server side's.
    webSocketClient: webSocketConnector(WebSocket as unknown as WebSocketClass),
  };
}

/**
 * Node's command line, resolved once the command is done or, for the bridge, once it serves.
 * runtime/main.ts runs it from the module tree; it is also the entry of the one-file bundle
 * (scripts/bundle.mjs), which bin/claude-ide-bridge.js runs as a script with V8's code cache.
 */
export function runNodeCli(argv: string[]): Promise<void> {
  return runCli({ runtime: createNodeRuntime(), shutdown, writeStdout: (text) => process.stdout.write(text) }, argv);
}
