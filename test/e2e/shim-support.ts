// Helpers for the shim's end-to-end tests: the real shim process (`node bin/claude-ide-bridge.js
// shim`) driven line by line, an MCP SDK client through it, a TCP proxy that can cut the shim's
// connection without touching the bridge, bridge restarts on a given port and config dir, the
// CLI's other commands, and the events tests wait for instead of sleeping (Linux /proc: bytes a
// stopped bridge has not read, a shim process that watches its lock directory).
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, readdir, readFile, readlink, realpath, rm } from "node:fs/promises";
import { createConnection, createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import {
  BRIDGE_BIN,
  makeWorkspace,
  REPO_ROOT,
  startBridgeProcess,
  type BridgeProcess,
  type StartBridgeOptions,
} from "../helpers/spawn-bridge.ts";

export type Json = Record<string, unknown>;

const children = new Set<ChildProcess>();
process.once("exit", () => {
  for (const child of children) child.kill("SIGKILL");
});

/** A workspace and a CLAUDE_CONFIG_DIR that outlive bridge restarts; remove() at the end. */
export async function makeHome(): Promise<{ workspace: string; configDir: string; remove(): Promise<void> }> {
  const workspace = await makeWorkspace();
  const configDir = await realpath(await mkdtemp(join(tmpdir(), "shim-cfg-")));
  return {
    workspace,
    configDir,
    remove: async () => {
      await rm(workspace, { recursive: true, force: true });
      await rm(configDir, { recursive: true, force: true });
    },
  };
}

/** A bridge on the given home (and port, when restarting one). */
export function bridgeOn(
  home: { workspace: string; configDir: string },
  opts: { port?: number; args?: string[] } & StartBridgeOptions = {},
): Promise<BridgeProcess> {
  const args = [...(opts.port === undefined ? [] : ["--port", String(opts.port)]), ...(opts.args ?? [])];
  return startBridgeProcess({ ...opts, workspace: home.workspace, configDir: home.configDir, args });
}

/** kill -9, and wait for the exit. */
export async function killHard(bridge: BridgeProcess): Promise<void> {
  bridge.proc.kill("SIGKILL");
  await bridge.exited;
  await bridge.stop();
}

export interface ShimProcess {
  proc: ChildProcess;
  lines: Json[];
  /** stdout lines that were not JSON (must stay empty). */
  junk: string[];
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  send(message: Json | string | Buffer): void;
  waitFor(pred: (m: Json) => boolean, timeoutMs?: number): Promise<Json>;
  request(id: number | string, method: string, params?: Json, timeoutMs?: number): Promise<Json>;
  initialize(): Promise<Json>;
  stop(): Promise<void>;
}

/**
 * The shim's flags for tests that bring their own bridge: it must not start one itself (the
 * default), and may wait for one as long as a busy CI machine needs to start it.
 */
export function shimArgs(opts: { args?: string[]; spawn?: boolean }): string[] {
  const args = opts.args ?? [];
  if (opts.spawn === true) return args;
  return ["--no-spawn", ...(args.some((a) => a.startsWith("--connect-timeout")) ? [] : ["--connect-timeout", "20000"]), ...args];
}

export function startShim(opts: {
  cwd: string;
  configDir: string;
  args?: string[];
  spawn?: boolean;
  env?: Record<string, string>;
}): ShimProcess {
  const proc = spawn(process.execPath, [BRIDGE_BIN, "shim", ...shimArgs(opts)], {
    cwd: opts.cwd,
    env: { ...process.env, CLAUDE_CONFIG_DIR: opts.configDir, ...opts.env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  children.add(proc);
  const lines: Json[] = [];
  const junk: string[] = [];
  let stderr = "";
  let buffer = "";
  const waiters: Array<() => void> = [];
  proc.stderr?.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  proc.stdout?.setEncoding("utf8").on("data", (d: string) => {
    buffer += d;
    for (let nl = buffer.indexOf("\n"); nl !== -1; nl = buffer.indexOf("\n")) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      try {
        lines.push(JSON.parse(line) as Json);
      } catch {
        junk.push(line);
      }
    }
    for (const w of waiters.splice(0)) w();
  });
  proc.stdin?.on("error", () => undefined);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.once("exit", (code, signal) => {
      children.delete(proc);
      for (const w of waiters.splice(0)) w();
      resolve({ code, signal });
    }),
  );
  const shim: ShimProcess = {
    proc,
    lines,
    junk,
    stderr: () => stderr,
    exited,
    send(message) {
      const data = typeof message === "string" || Buffer.isBuffer(message) ? message : JSON.stringify(message);
      proc.stdin?.write(data);
      if (!Buffer.isBuffer(message)) proc.stdin?.write("\n");
    },
    async waitFor(pred, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const hit = lines.find(pred);
        if (hit) return hit;
        const left = deadline - Date.now();
        if (left <= 0 || proc.exitCode !== null) {
          throw new Error(
            `no matching line within ${timeoutMs} ms; stdout ${JSON.stringify(lines).slice(0, 2000)}\n--- shim stderr ---\n${stderr}`,
          );
        }
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(t);
            resolve();
          });
        });
      }
    },
    async request(id, method, params = {}, timeoutMs) {
      shim.send({ jsonrpc: "2.0", id, method, params });
      return shim.waitFor((m) => m.id === id && ("result" in m || "error" in m), timeoutMs);
    },
    async initialize() {
      const res = await shim.request("init", "initialize", {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "shim-e2e", version: "0" },
      });
      shim.send({ jsonrpc: "2.0", method: "notifications/initialized" });
      return res;
    },
    async stop() {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      proc.kill("SIGKILL");
      await exited;
    },
  };
  return shim;
}

export interface ShimClient {
  client: Client;
  transport: StdioClientTransport;
  stderr(): string;
  pid: number | null;
  close(): Promise<void>;
}

/** An MCP SDK client that starts the shim as its stdio server. */
export function sdkThroughShim(opts: { cwd: string; configDir: string; args?: string[]; spawn?: boolean }): Promise<ShimClient> {
  return startSdkThroughShim(opts).connected;
}

/** The same, with the shim's stderr readable while the client still waits for its initialize. */
export function startSdkThroughShim(opts: { cwd: string; configDir: string; args?: string[]; spawn?: boolean }): {
  stderr(): string;
  connected: Promise<ShimClient>;
} {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BRIDGE_BIN, "shim", ...shimArgs(opts)],
    cwd: opts.cwd,
    env: { ...(process.env as Record<string, string>), CLAUDE_CONFIG_DIR: opts.configDir },
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (d: Buffer) => (stderr += d.toString("utf8")));
  const client = new Client({ name: "shim-sdk-e2e", version: "0.0.0" });
  const connected = client.connect(transport).then(() => ({
    client,
    transport,
    stderr: () => stderr,
    pid: transport.pid,
    close: async () => {
      const pid = transport.pid;
      await client.close().catch(() => undefined);
      if (pid !== null) {
        try {
          process.kill(pid, "SIGKILL");
        } catch {
          // already gone
        }
      }
    },
  }));
  return { stderr: () => stderr, connected };
}

/** `node bin/claude-ide-bridge.js <args>` to completion, e.g. `status --json` or `print-token`. */
export function runCli(
  args: string[],
  opts: { cwd: string; configDir: string },
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BRIDGE_BIN, ...args],
      { cwd: opts.cwd, env: { ...process.env, CLAUDE_CONFIG_DIR: opts.configDir } },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/**
 * Bytes that arrived on the server end of established TCP connections to `port` and that the
 * server has not read yet (Linux /proc/net/tcp, IPv4): with the bridge stopped (SIGSTOP), a
 * message the shim sent it is there, so a test can tell it is surely in flight.
 */
export async function unreadBytesAt(port: number): Promise<number> {
  const ESTABLISHED = "01";
  let total = 0;
  for (const line of (await readFile("/proc/net/tcp", "utf8")).split("\n").slice(1)) {
    // sl local_address rem_address st tx_queue:rx_queue ...
    const [, local, , state, queues] = line.trim().split(/\s+/);
    if (local === undefined || queues === undefined || state !== ESTABLISHED) continue;
    if (Number.parseInt(local.split(":")[1] ?? "", 16) === port) total += Number.parseInt(queues.split(":")[1] ?? "0", 16);
  }
  return total;
}

/**
 * Whether a `claude-ide-bridge.js shim` process runs in `cwd` and watches its lock directory
 * (Linux /proc: an inotify descriptor, which Node opens only for fs.watch): the shim has then
 * started looking for a bridge. For shims started by another program, such as Claude Code.
 */
export async function shimIsWatching(cwd: string): Promise<boolean> {
  for (const pid of (await readdir("/proc")).filter((name) => /^\d+$/.test(name))) {
    try {
      const argv = (await readFile(`/proc/${pid}/cmdline`, "utf8")).split("\0");
      if (!argv.includes(BRIDGE_BIN) || !argv.includes("shim") || (await readlink(`/proc/${pid}/cwd`)) !== cwd) continue;
      for (const fd of await readdir(`/proc/${pid}/fd`)) {
        if ((await readlink(`/proc/${pid}/fd/${fd}`).catch(() => "")) === "anon_inode:inotify") return true;
      }
    } catch {
      // The process ended while we looked.
    }
  }
  return false;
}

/** Text of the first content item of a tool result. */
export function resultText(result: unknown): string {
  const content = (result as { content?: Array<{ type: string; text?: string }> }).content;
  return content?.[0]?.text ?? "";
}

/**
 * A TCP proxy in front of the bridge: cut() drops every connection and refuses new ones,
 * restore() accepts again on the same port. The bridge never notices anything but a close.
 */
export class TcpProxy {
  port = 0;
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();

  constructor(private readonly targetPort: number) {}

  async listen(): Promise<void> {
    const server = createServer((client) => {
      const upstream = createConnection(this.targetPort, "127.0.0.1");
      this.sockets.add(client).add(upstream);
      const drop = () => {
        client.destroy();
        upstream.destroy();
        this.sockets.delete(client);
        this.sockets.delete(upstream);
      };
      client.on("error", drop).on("close", drop);
      upstream.on("error", drop).on("close", drop);
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => server.listen(this.port, "127.0.0.1", resolve));
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }

  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  restore(): Promise<void> {
    return this.listen();
  }
}

export async function health(bridge: BridgeProcess): Promise<Record<string, number | string>> {
  const response = await fetch(`${bridge.url}/health`, { headers: { authorization: `Bearer ${bridge.token}` } });
  return (await response.json()) as Record<string, number | string>;
}

export { REPO_ROOT };
