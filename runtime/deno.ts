// The Runtime for Deno, and the CLI entry on Deno: `deno run -A runtime/deno.ts [flags]`, or
// `deno run -A npm:claude-ide-bridge` through bin/claude-ide-bridge.js. Deno runs these .ts
// sources directly. Native where Deno is faster or must be (Deno.serve, Deno.Command, stdout);
// node: modules where the result is the same (fs, dns, which, process questions and signals),
// shared with runtime/node.ts.
import { runCli } from "./cli/cli.ts";
import { createDenoUpgradeWebSocket, denoServe, denoWebSocketInfo } from "./deno/serve.ts";
import { denoSpawn } from "./deno/spawn.ts";
import { shutdown } from "./shared/shutdown.ts";
import { nodeWhich } from "./shared/spawn.ts";
import { sharedMembers } from "./shared/compat.ts";
import { languageServers } from "./lsp/launcher.ts";
import type { Runtime } from "../src/ports/runtime.ts";
import { createPluginImporter } from "./shared/plugin-import.ts";
import { startWebPluginWorker } from "./shared/web-plugin-worker.ts";
import { DEFAULT_PING_INTERVAL_MS } from "./shared/ws-policy.ts";
import { webSocketConnector, type WebSocketClass } from "./shared/websocket-client.ts";

export { shutdown };

export interface DenoRuntimeOptions {
  /** WebSocket heartbeat period (default 30 s); whole seconds on Deno, so 500 ms is the shortest. */
  pingIntervalMs?: number;
}

export function createDenoRuntime(options: DenoRuntimeOptions = {}): Runtime {
  const env: Readonly<Record<string, string | undefined>> = Object.freeze(Deno.env.toObject());
  return {
    name: "deno",
    serve: (app, opts) => denoServe(app, opts),
    upgradeWebSocket: createDenoUpgradeWebSocket(options.pingIntervalMs ?? DEFAULT_PING_INTERVAL_MS),
    webSocketInfo: denoWebSocketInfo,
    spawn: denoSpawn,
    languageServers: languageServers(denoSpawn),
    which: (cmd) => nodeWhich(cmd, env),
    ...sharedMembers(env),
    plugins: createPluginImporter({
      startWorker: (events) => startWebPluginWorker(new URL("./shared/plugin-worker.mjs", import.meta.url), events),
      memoryLimit: "none",
    }),
    webSocketClient: webSocketConnector(globalThis.WebSocket as unknown as WebSocketClass),
  };
}

/** Writes all of `text`: Deno's writeSync may write less than it was given. */
function writeStdout(text: string): void {
  let bytes = new TextEncoder().encode(text);
  while (bytes.byteLength > 0) bytes = bytes.subarray(Deno.stdout.writeSync(bytes));
}

/** Runs the CLI (runtime/cli/cli.ts) on Deno. */
export function main(argv: string[] = Deno.args): Promise<void> {
  return runCli({ runtime: createDenoRuntime(), shutdown, writeStdout }, argv);
}

if (import.meta.main) void main();
