// The stdio shim on every runtime (`claude-ide-bridge shim --port P --token T` through each
// runtime's entry), against a bridge on the same runtime: MCP over stdin/stdout with a tool call,
// then the bridge stops and comes back on the same port, and the same shim session carries on
// without the client initializing again (the shim reattaches: the session resumed from the
// bridge's checkpoint, or initialize replayed on a new one).
import { spawn, type ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/spawn-bridge.ts";
import { startFixtureBridge, type FixtureBridge } from "./bridge-fixture.ts";
import { stopAll } from "./process.ts";
import { assertRuntimesInstalled, bridgeCommand, RUNTIMES, type RuntimeName } from "./runtimes.ts";

type Json = Record<string, unknown>;

beforeAll(() => assertRuntimesInstalled());
afterAll(() => stopAll());

/** The shim as a client drives it: JSON-RPC lines in on stdin, lines out on stdout. */
class StdioShim {
  readonly lines: Json[] = [];
  /** stdout lines that are not JSON: there must be none. */
  readonly junk: string[] = [];
  stderr = "";
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private readonly proc: ChildProcess;
  private waiters: Array<() => void> = [];

  constructor(runtime: RuntimeName, bridge: FixtureBridge) {
    const [exe, ...pre] = bridgeCommand(runtime);
    this.proc = spawn(exe, [...pre, "shim", "--port", String(bridge.port), "--token", bridge.token], {
      cwd: REPO_ROOT,
      env: { ...process.env, CLAUDE_CONFIG_DIR: bridge.configDir },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let buffer = "";
    this.proc.stderr?.setEncoding("utf8").on("data", (d: string) => (this.stderr += d));
    this.proc.stdout?.setEncoding("utf8").on("data", (d: string) => {
      buffer += d;
      for (let nl = buffer.indexOf("\n"); nl !== -1; nl = buffer.indexOf("\n")) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        try {
          this.lines.push(JSON.parse(line) as Json);
        } catch {
          this.junk.push(line);
        }
      }
      for (const w of this.waiters.splice(0)) w();
    });
    this.proc.stdin?.on("error", () => undefined);
    this.exited = new Promise((resolve) => this.proc.once("exit", (code, signal) => resolve({ code, signal })));
  }

  send(message: Json): void {
    this.proc.stdin?.write(`${JSON.stringify(message)}\n`);
  }

  async request(id: number, method: string, params: Json = {}, timeoutMs = 15_000): Promise<Json> {
    this.send({ jsonrpc: "2.0", id, method, params });
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const hit = this.lines.find((m) => m.id === id && ("result" in m || "error" in m));
      if (hit) return hit;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no answer to ${method} (id ${id}) within ${timeoutMs} ms\n--- shim stderr ---\n${this.stderr}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Closes stdin, as a client that is done does; the shim then exits on its own. */
  async end(): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    this.proc.stdin?.end();
    const killer = setTimeout(() => this.proc.kill("SIGKILL"), 10_000);
    const info = await this.exited;
    clearTimeout(killer);
    return info;
  }
}

function workspaceFolders(answer: Json): string {
  return JSON.stringify(answer.result ?? answer.error);
}

describe.each(RUNTIMES)("the shim on %s", (runtime) => {
  let bridge: FixtureBridge;
  let first: FixtureBridge | undefined; // owns the temp dirs the restarted bridge reuses
  let shim: StdioShim;

  beforeAll(async () => {
    bridge = first = await startFixtureBridge(runtime);
    shim = new StdioShim(runtime, bridge);
  });

  afterAll(async () => {
    await shim?.end();
    await bridge?.stop();
    await first?.cleanup();
  });

  it("relays MCP over stdio: initialize, then a tool call", async () => {
    const init = await shim.request(1, "initialize", {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: `contract-shim-${runtime}`, version: "0" },
    });
    expect(init.result).toMatchObject({ serverInfo: { name: "claude-ide-bridge" } });
    shim.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    const called = await shim.request(2, "tools/call", { name: "getWorkspaceFolders", arguments: {} });
    expect(called.error).toBeUndefined();
    expect(workspaceFolders(called)).toContain(bridge.workspace);
  });

  it("reattaches after the bridge restarts on the same port: the next call just works", async () => {
    expect(await bridge.stop("SIGTERM")).toEqual({ code: 0, signal: null });
    await expect.poll(() => shim.stderr, { timeout: 10_000 }).toMatch(/bridge connection closed/);
    bridge = await startFixtureBridge(runtime, {
      port: bridge.port,
      token: bridge.token,
      workspace: bridge.workspace,
      configDir: bridge.configDir,
    });
    // Made up before the shim is back: it queues the call and sends it once reattached.
    const called = await shim.request(3, "tools/call", { name: "getWorkspaceFolders", arguments: {} }, 30_000);
    expect(called.error).toBeUndefined();
    expect(workspaceFolders(called)).toContain(bridge.workspace);
    await expect.poll(() => shim.stderr, { timeout: 5_000 }).toMatch(/resumed|replayed initialize/);
    expect(JSON.stringify(shim.lines)).not.toMatch(/not initialized/i);
  });

  it("wrote nothing but JSON-RPC lines to stdout, and exits 0 when stdin ends", async () => {
    expect(shim.junk).toEqual([]);
    expect(await shim.end()).toEqual({ code: 0, signal: null });
  });
});
