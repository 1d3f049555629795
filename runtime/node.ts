// The Runtime for Node >= 20: the only place (with its node-*.ts helpers) that knows it runs on Node.
import { lookup } from "node:dns/promises";
import { homedir, tmpdir } from "node:os";
import { upgradeWebSocket } from "@hono/node-server";
import { WebSocket } from "ws";
import { createNodeFs } from "./node-fs.ts";
import { processAlive, processStartTime } from "./node-process.ts";
import { nodeServe } from "./node-serve.ts";
import { onShutdown } from "./node-shutdown.ts";
import { nodeSpawn, nodeWhich } from "./node-spawn.ts";
import type { Runtime } from "./types.ts";

export { shutdown } from "./node-shutdown.ts";

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
    fs: createNodeFs(),
    spawn: nodeSpawn,
    which: (cmd) => nodeWhich(cmd, env),
    resolveHost: async (host) => (await lookup(host, { all: true, verbatim: true })).map((a) => a.address),
    env,
    paths: Object.freeze({ home: homedir(), cwd: process.cwd(), tmp: tmpdir() }),
    pid: process.pid,
    platform: process.platform === "linux" || process.platform === "darwin" || process.platform === "win32" ? process.platform : "other",
    processAlive,
    processStartTime,
    onShutdown,
  };
}
