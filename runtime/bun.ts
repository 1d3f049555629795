// The Runtime for Bun, and the CLI entry on Bun: `bun run runtime/bun.ts [flags]`, or
// `bunx claude-ide-bridge` through bin/claude-ide-bridge.js. Bun runs these .ts sources directly.
// Native where Bun is faster (Bun.serve, Bun.spawn, Bun.which); node: modules where the result is
// the same (fs, dns, process questions and signals), shared with runtime/node.ts.
import { bunServe, bunUpgradeWebSocket, bunWebSocketInfo } from "./bun/serve.ts";
import { bunSpawn, bunWhich } from "./bun/spawn.ts";
import { runCli } from "./cli/cli.ts";
import { shutdown } from "./shared/shutdown.ts";
import { sharedMembers } from "./shared/compat.ts";
import { languageServers } from "./lsp/launcher.ts";
import type { Runtime } from "../src/ports/runtime.ts";
import { createPluginImporter } from "./shared/plugin-import.ts";
import { startWebPluginWorker } from "./shared/web-plugin-worker.ts";
import { DEFAULT_PING_INTERVAL_MS } from "./shared/ws-policy.ts";
import { webSocketConnector, type WebSocketClass } from "./shared/websocket-client.ts";

export { shutdown };

export interface BunRuntimeOptions {
  /** WebSocket heartbeat period (default 30 s); Bun's granularity makes 4 s the shortest. */
  pingIntervalMs?: number;
}

export function createBunRuntime(options: BunRuntimeOptions = {}): Runtime {
  const env: Readonly<Record<string, string | undefined>> = Object.freeze({ ...process.env });
  const pingIntervalMs = options.pingIntervalMs ?? DEFAULT_PING_INTERVAL_MS;
  return {
    name: "bun",
    serve: (app, opts) => bunServe(app, opts, { pingIntervalMs }),
    upgradeWebSocket: bunUpgradeWebSocket,
    webSocketInfo: bunWebSocketInfo,
    spawn: bunSpawn,
    languageServers: languageServers(bunSpawn),
    which: (cmd) => bunWhich(cmd, env),
    ...sharedMembers(env),
    plugins: createPluginImporter({
      startWorker: (events) => startWebPluginWorker(new URL("./shared/plugin-worker.mjs", import.meta.url), events),
      memoryLimit: "none",
    }),
    webSocketClient: webSocketConnector(globalThis.WebSocket as unknown as WebSocketClass),
  };
}

/** Runs the CLI (runtime/cli/cli.ts) on Bun. */
export function main(argv: string[] = process.argv.slice(2)): Promise<void> {
  return runCli({ runtime: createBunRuntime(), shutdown, writeStdout: (text) => process.stdout.write(text) }, argv);
}

if (import.meta.main) void main();
