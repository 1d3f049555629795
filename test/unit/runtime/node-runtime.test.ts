// The Node runtime (runtime/node.ts) in-process: serve on a real port with WebSocket upgrades, and
// the host and process facts. Its spawn starts real processes: test/integration/runtime/node-spawn.test.ts.
import { Hono } from "hono";
import type { WSContext } from "hono/ws";
import { afterEach, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { createNodeRuntime } from "../../../runtime/node.ts";
import type { Served } from "../../../src/ports/net.ts";

const isLinux = process.platform === "linux";
const servers: Served[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** An app with a plain route and a WebSocket echo route, served on a random port. */
async function serveEchoApp(pingIntervalMs = 30_000) {
  const runtime = createNodeRuntime({ pingIntervalMs });
  let onServerOpen: (ws: WSContext) => void = () => {};
  const app = new Hono();
  app.get("/hello", (c) => c.text("hi"));
  app.get(
    "/ws",
    runtime.upgradeWebSocket(() => ({
      onOpen: (_evt, ws) => onServerOpen(ws),
      onMessage: (evt, ws) => ws.send(String(evt.data)),
    })),
  );
  const served = await runtime.serve(app, { hostname: "127.0.0.1", port: 0 });
  servers.push(served);
  /** The server's side of the next connection, once its onOpen has run (after the client's "open"). */
  const nextServerSocket = () => new Promise<WSContext>((resolve) => (onServerOpen = resolve));
  return { runtime, served, nextServerSocket, url: `ws://127.0.0.1:${served.port}/ws` };
}

function open(url: string, protocols: string[], opts: { autoPong?: boolean } = {}): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, protocols, opts);
    ws.once("open", () => resolve(ws));
    ws.once("error", reject);
  });
}

function closed(ws: WebSocket): Promise<number> {
  return new Promise((resolve) => ws.once("close", (code) => resolve(code)));
}

describe("serve", () => {
  it("answers fetch on the port it reports", async () => {
    const { served } = await serveEchoApp();
    expect(served.port).toBeGreaterThan(0);
    expect(served.hostname).toBe("127.0.0.1");
    const res = await fetch(`http://127.0.0.1:${served.port}/hello`);
    expect(await res.text()).toBe("hi");
  });

  it("reports a busy port as port_in_use", async () => {
    const { served } = await serveEchoApp();
    const runtime = createNodeRuntime();
    await expect(runtime.serve(new Hono(), { hostname: "127.0.0.1", port: served.port })).rejects.toMatchObject({
      name: "BridgeError",
      code: "port_in_use",
    });
  });

  it("echoes the mcp subprotocol, even when it is not offered first", async () => {
    const { url } = await serveEchoApp();
    const first = await open(url, ["mcp"]);
    expect(first.protocol).toBe("mcp");
    const second = await open(url, ["other", "mcp"]);
    expect(second.protocol).toBe("mcp");
    const reply = new Promise<string>((resolve) => first.once("message", (data) => resolve(String(data))));
    first.send("ping?");
    expect(await reply).toBe("ping?");
    first.close();
    second.close();
  });

  it("exposes bufferedAmount of an upgraded socket", async () => {
    const { url, nextServerSocket, runtime } = await serveEchoApp();
    const serverSide = nextServerSocket();
    const client = await open(url, ["mcp"]);
    expect(runtime.webSocketInfo.bufferedAmount(await serverSide)).toBe(0);
    client.close();
  });

  it("refuses frames over 4 MB", async () => {
    const { url } = await serveEchoApp();
    const client = await open(url, ["mcp"]);
    const code = closed(client);
    client.send("x".repeat(4 * 1024 * 1024 + 1));
    expect(await code).toBe(1009);
  });

  it("terminates a client that stops answering pings", async () => {
    const { url } = await serveEchoApp(50);
    const silent = await open(url, ["mcp"], { autoPong: false });
    const polite = await open(url, ["mcp"]);
    const silentClosed = closed(silent);
    expect(await silentClosed).toBe(1006);
    expect(polite.readyState).toBe(WebSocket.OPEN);
    polite.close();
  });

  it("close() sends 1001 to clients and stops listening", async () => {
    const runtime = createNodeRuntime();
    const app = new Hono();
    app.get(
      "/ws",
      runtime.upgradeWebSocket(() => ({})),
    );
    const served = await runtime.serve(app, { hostname: "127.0.0.1", port: 0 });
    const client = await open(`ws://127.0.0.1:${served.port}/ws`, ["mcp"]);
    const code = closed(client);
    await served.close();
    expect(await code).toBe(1001);
    await expect(fetch(`http://127.0.0.1:${served.port}/ws`)).rejects.toThrow();
  });
});

describe("host and process facts", () => {
  const runtime = createNodeRuntime();

  it("which() finds executables on PATH only", async () => {
    expect(await runtime.which("sh")).toMatch(/\/sh$/);
    expect(await runtime.which("definitely-not-a-command-xyz")).toBeUndefined();
    expect(await runtime.which("/bin/sh")).toBe("/bin/sh");
    expect(await runtime.which("/etc/passwd")).toBeUndefined();
    expect(await runtime.which("/tmp")).toBeUndefined();
  });

  it("resolveHost() returns addresses", async () => {
    expect(await runtime.resolveHost("127.0.0.1")).toEqual(["127.0.0.1"]);
    const local = await runtime.resolveHost("localhost");
    expect(local.some((a) => a === "127.0.0.1" || a === "::1")).toBe(true);
  });

  it("processAlive()", () => {
    expect(runtime.processAlive(process.pid)).toBe(true);
    expect(runtime.processAlive(0)).toBe(false);
    expect(runtime.processAlive(-1)).toBe(false);
    expect(runtime.processAlive(1.5)).toBe(false);
    expect(runtime.processAlive(2 ** 30)).toBe(false);
  });

  it.runIf(isLinux)("processStartTime() of this process lies within the last hour", async () => {
    const started = await runtime.processStartTime(process.pid);
    expect(started).toBeDefined();
    expect(started).toBeLessThanOrEqual(Date.now() + 1000);
    expect(started).toBeGreaterThan(Date.now() - 3600_000);
    expect(await runtime.processStartTime(2 ** 30)).toBeUndefined();
  });

  it("snapshots env and paths", () => {
    expect(runtime.name).toBe("node");
    expect(runtime.pid).toBe(process.pid);
    expect(runtime.env.PATH).toBe(process.env.PATH);
    expect(Object.isFrozen(runtime.env)).toBe(true);
    expect(runtime.paths.cwd).toBe(process.cwd());
    expect(runtime.paths.home.length).toBeGreaterThan(0);
    expect(runtime.paths.tmp.length).toBeGreaterThan(0);
    expect(runtime.platform).toBe(process.platform === "linux" ? "linux" : runtime.platform);
  });
});
