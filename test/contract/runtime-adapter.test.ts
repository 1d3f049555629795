// The Runtime adapters themselves (runtime/node.ts, bun.ts, deno.ts), held to one contract: a
// probe process (fixtures/runtime-probe.ts) serves through the adapter under each runtime and
// reports what spawn, which, fs, DNS and process questions answered there; the WebSocket policy
// (4 MB frames, `mcp` subprotocol, heartbeat, 1001 on close) is checked over the wire. Streaming
// spawns and process groups, the watcher and fetchPinned have their own files (runtime-*.test.ts).
import { randomBytes } from "node:crypto";
import { request } from "node:http";
import { connect, type Socket } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { REPO_ROOT } from "../helpers/spawn-bridge.ts";
import type { ProbeReport } from "./fixtures/runtime-probe.ts";
import { startProcess, stopAll, type Started } from "./process.ts";
import { assertRuntimesInstalled, executablePattern, RUNTIMES, scriptCommand, type RuntimeName } from "./runtimes.ts";

const PROBE = join(REPO_ROOT, "test", "contract", "fixtures", "runtime-probe.ts");
/**
 * Heartbeat period per runtime for the heartbeat case's own probe, short but not shorter than each
 * allows: Bun counts its idle timeout in whole seconds from 8 up, Deno in seconds; both ping at
 * half the idle timeout and drop at the whole.
 */
const PING_MS: Record<RuntimeName, number> = { node: 1_000, bun: 4_000, deno: 2_000 };
/**
 * The shared probe's heartbeat: long, so that no other case's client is dropped as dead. The
 * bufferedAmount case holds its client paused (deaf to pings) for a few round trips, which a CI run
 * at load 25 stretched past Deno's drop at a 500 ms heartbeat (the client was gone before the poll
 * after its resume); a longer short one only makes that rarer.
 */
const QUIET_PING_MS = 60_000;

beforeAll(() => assertRuntimesInstalled());
afterAll(() => stopAll());

function open(url: string, protocols: string[], opts: WebSocket.ClientOptions = {}): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, protocols, opts);
    ws.once("open", () => resolve(ws));
    ws.once("error", reject);
  });
}

function closed(ws: WebSocket): Promise<number> {
  return new Promise((resolve) => ws.once("close", (code) => resolve(code)));
}

/** A raw upgrade request, so the Sec-WebSocket-Protocol header is sent exactly as given. */
function rawUpgrade(port: number, protocolHeader: string): Promise<{ status: number; protocol: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request({
      host: "127.0.0.1",
      port,
      path: "/ws",
      headers: {
        connection: "Upgrade",
        upgrade: "websocket",
        "sec-websocket-version": "13",
        "sec-websocket-key": randomBytes(16).toString("base64"),
        "sec-websocket-protocol": protocolHeader,
      },
    });
    req.once("upgrade", (res, socket) => {
      socket.destroy();
      resolve({ status: res.statusCode ?? 0, protocol: res.headers["sec-websocket-protocol"] });
    });
    req.once("response", (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0, protocol: undefined });
    });
    req.once("error", reject);
    req.end();
  });
}

/** An upgraded connection on a raw socket that never answers frames; resolves with the close code it is sent. */
function deafClient(port: number): Promise<{ socket: Socket; closeFrame: Promise<number> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("error", reject);
    socket.write(
      "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n" +
        `Sec-WebSocket-Key: ${randomBytes(16).toString("base64")}\r\nSec-WebSocket-Protocol: mcp\r\n\r\n`,
    );
    let data = Buffer.alloc(0);
    let upgraded = false;
    let onCloseFrame: (code: number) => void = () => {};
    const closeFrame = new Promise<number>((r) => (onCloseFrame = r));
    socket.on("data", (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      if (!upgraded) {
        const end = data.indexOf("\r\n\r\n");
        if (end === -1) return;
        if (!data.subarray(0, end).toString().startsWith("HTTP/1.1 101")) return reject(new Error(data.toString()));
        upgraded = true;
        data = data.subarray(end + 4);
        resolve({ socket, closeFrame });
      }
      // Server frames are unmasked; a close frame is 0x88, its payload starts with the code.
      for (let at = 0; at + 2 <= data.length; ) {
        const len = data[at + 1]! & 0x7f;
        if (len > 125 || at + 2 + len > data.length) break;
        if ((data[at]! & 0x0f) === 0x8) onCloseFrame(len >= 2 ? data.readUInt16BE(at + 2) : 1005);
        at += 2 + len;
      }
    });
  });
}

describe.each(RUNTIMES)("the %s adapter", (runtime) => {
  let probe: Started;
  let port: number;
  let report: ProbeReport;

  beforeAll(async () => {
    probe = await startProcess([...scriptCommand(runtime, PROBE), String(QUIET_PING_MS)], {
      ready: /PROBE_PORT=(\d+)/,
      env: { BAR: "from the parent" },
    });
    port = Number(probe.ready[1]);
    report = (await (await fetch(`http://127.0.0.1:${port}/selfcheck`)).json()) as ProbeReport;
  });

  afterAll(async () => {
    await probe?.stop();
  });

  it(`runs on ${runtime}, with its process facts`, async () => {
    const { readlink } = await import("node:fs/promises");
    expect(await readlink(`/proc/${probe.proc.pid}/exe`)).toMatch(executablePattern(runtime));
    expect(report.name).toBe(runtime);
    expect(report.pid).toBe(probe.proc.pid);
    expect(report.platform).toBe("linux");
    expect(report.envPath).toBe(process.env.PATH);
    expect(report.envFrozen).toBe(true);
    expect(report.webSocketClient).toEqual({ echo: "héllo ✓", closed: "string", refused: { name: "RuntimeError", code: "ECONNREFUSED" } });
    expect(report.paths).toEqual({ home: expect.any(String), cwd: REPO_ROOT.replace(/\/$/, ""), tmp: expect.any(String) });
    expect(report.processAlive).toEqual({ self: true, zero: false, negative: false, huge: false });
    const { self, now } = report.processStartTime;
    if (self === null) throw new Error("no start time on Linux");
    expect(self).toBeLessThanOrEqual(now + 1000);
    expect(self).toBeGreaterThan(now - 60_000);
  });

  it("spawns without a shell, with stdin, cwd, a whole env, abort, kill and a missing command", () => {
    const { spawn } = report;
    expect(spawn.echo).toMatchObject({ pid: expect.any(Number), stdout: "hello $HOME; *\n", stderr: "", exit: { ok: 0 } });
    expect(spawn.stdin).toMatchObject({ stdout: "from stdin", stderr: "err\n", exit: { ok: 3 } });
    // BAR is set in the parent's environment below; a given env replaces the parent's.
    expect(spawn.envAndCwd).toMatchObject({ stdout: "/tmp\nbar\nunset\n", exit: { ok: 0 } });
    expect(spawn.aborted).toEqual({ ok: 143 });
    expect(spawn.abortedBeforeStart).toEqual({ ok: 143 });
    expect(spawn.killed).toEqual({ ok: 137 });
    expect(spawn.missing).toEqual({ stdout: "", stderr: "", exit: { name: "RuntimeError", code: "ENOENT" } });
    expect(spawn.missing.pid).toBeUndefined();
    expect(spawn.echo.pid).not.toBe(report.pid);
  });

  it("finds executables on PATH only, and resolves hosts", () => {
    expect(report.which).toEqual({
      sh: expect.stringMatching(/\/sh$/),
      missing: null,
      absolute: "/bin/sh",
      notExecutable: null,
      directory: null,
    });
    expect(report.resolveHost.ip).toEqual(["127.0.0.1"]);
    expect(report.resolveHost.localhost.some((a) => a === "127.0.0.1" || a === "::1")).toBe(true);
  });

  it("writes atomically and exclusively with exact modes, never through a symlink, with Node's error codes", () => {
    const { fs } = report;
    expect(fs).toMatchObject({
      atomicText: "two",
      atomicMode: 0o640,
      lockMode: 0o600,
      exclusiveAgain: { code: "EEXIST" },
      exclusiveOnSymlink: { code: "EEXIST" },
      victim: "original",
      dirMode: 0o700,
      linkLstatIsSymlink: true,
      realpath: true,
      bytes: 8,
      missing: { code: "ENOENT" },
      notDir: { code: "ENOTDIR" },
      rmMissingForced: {},
    });
    expect(fs.linkStat).toMatchObject({ isFile: true, isSymbolicLink: false, size: 8, nlink: 1 });
    expect(fs.entries).toEqual([
      { name: "lock", isFile: true, isDirectory: false, isSymbolicLink: false },
      { name: "planted", isFile: false, isDirectory: false, isSymbolicLink: true },
      { name: "renamed", isFile: true, isDirectory: false, isSymbolicLink: false },
      { name: "sub", isFile: false, isDirectory: true, isSymbolicLink: false },
      { name: "victim", isFile: true, isDirectory: false, isSymbolicLink: false },
    ]);
  });

  it("reports a busy port as port_in_use", () => {
    expect(report.portInUse).toEqual({ name: "BridgeError", code: "port_in_use" });
  });

  it("echoes the mcp subprotocol, offered alone or after another", async () => {
    const ws = await open(`ws://127.0.0.1:${port}/ws`, ["mcp"]);
    expect(ws.protocol).toBe("mcp");
    const reply = new Promise<string>((resolve) => ws.once("message", (data) => resolve(String(data))));
    ws.send("ping?");
    expect(await reply).toBe("ping?");
    ws.close();
    expect(await rawUpgrade(port, "other, mcp")).toEqual({ status: 101, protocol: "mcp" });
    expect(await rawUpgrade(port, "mcp, other")).toEqual({ status: 101, protocol: "mcp" });
    // RFC 6455 allows "other,mcp" too; Deno's parser does not (it splits on ", "), so the Deno
    // adapter refuses it with a 400 that says why. Claude Code offers "mcp" alone.
    expect(await rawUpgrade(port, "other,mcp")).toEqual(
      runtime === "deno" ? { status: 400, protocol: undefined } : { status: 101, protocol: "mcp" },
    );
  });

  it("reports bufferedAmount: above 1 MB while a client does not read, 0 once it has", async () => {
    const ws = await open(`ws://127.0.0.1:${port}/ws`, ["mcp"]);
    let received = 0;
    ws.on("message", () => received++);
    // The client stops reading: what the server sends piles up past the kernel's buffers.
    ws.pause();
    // The server side opens after the client's "open"; flood only once it has.
    await expect.poll(async () => (await (await fetch(`http://127.0.0.1:${port}/buffered`)).json()) as number[]).toHaveLength(1);
    // 1 MB frames until the adapter reports more than 1 MB queued: how much the kernel's socket
    // buffers take first depends on the machine (a CI run's loopback took all of 8 MB at once).
    // At most 14, under Bun's 16 MB backpressure limit, past which it drops frames.
    let sent = 0;
    let queued = 0;
    while (sent < 14 && queued <= 1024 * 1024) {
      const answer = (await (await fetch(`http://127.0.0.1:${port}/flood/1`, { method: "POST" })).json()) as number[];
      expect(answer).toHaveLength(1);
      queued = answer[0] ?? 0;
      sent++;
    }
    // src/transports/ws/safe-sender.ts holds responses back above 1 MB; it must be able to see that.
    expect(queued).toBeGreaterThan(1024 * 1024);
    ws.resume();
    await expect.poll(() => received, { timeout: 10_000 }).toBe(sent);
    await expect.poll(async () => (await (await fetch(`http://127.0.0.1:${port}/buffered`)).json()) as number[]).toEqual([0]);
    ws.close();
    await closed(ws);
  });

  it("refuses frames over 4 MB with 1009 and takes one of exactly 4 MB", async () => {
    const ws = await open(`ws://127.0.0.1:${port}/ws`, ["mcp"]);
    const fits = new Promise<number>((resolve) => ws.once("message", (data: Buffer) => resolve(data.length)));
    ws.send("x".repeat(4 * 1024 * 1024));
    expect(await fits).toBe(4 * 1024 * 1024);
    const code = closed(ws);
    ws.send("x".repeat(4 * 1024 * 1024 + 1));
    expect(await code).toBe(1009);
  });

  it("pings idle clients and drops one that never answers", async () => {
    const pinging = await startProcess([...scriptCommand(runtime, PROBE), String(PING_MS[runtime])], { ready: /PROBE_PORT=(\d+)/ });
    try {
      await pingsAndDrops(Number(pinging.ready[1]));
    } finally {
      await pinging.stop();
    }
  }, 60_000);

  async function pingsAndDrops(pingingPort: number): Promise<void> {
    const silent = await open(`ws://127.0.0.1:${pingingPort}/ws`, ["mcp"], { autoPong: false });
    const polite = await open(`ws://127.0.0.1:${pingingPort}/ws`, ["mcp"]);
    let pings = 0;
    polite.on("ping", () => pings++);
    const started = Date.now();
    const code = await closed(silent);
    // Node terminates (1006); Bun and Deno close the TCP connection or send 1001 "going away".
    expect([1001, 1006]).toContain(code);
    expect(Date.now() - started).toBeLessThan(4 * PING_MS[runtime] + 2_000);
    expect(pings).toBeGreaterThan(0);
    expect(polite.readyState).toBe(WebSocket.OPEN);
    polite.close();
    // Bun drops the silent client only at its idle timeout (8 s at least): about 7 s quiet, so the
    // limit is five times that and more.
  }

  it("close() stops accepting at once, sends 1001 to clients, then stops listening; SIGTERM then exits 0", async () => {
    const ws = await open(`ws://127.0.0.1:${port}/ws`, ["mcp"]);
    const code = closed(ws);
    // A client that never answers the close frame keeps close() waiting for a while.
    const deaf = await deafClient(port);
    await fetch(`http://127.0.0.1:${port}/close`, { method: "POST" });
    expect(await code).toBe(1001);
    expect(await deaf.closeFrame).toBe(1001);
    // While close() still waits for the deaf client, nobody new gets in.
    await expect(open(`ws://127.0.0.1:${port}/ws`, ["mcp"])).rejects.toThrow();
    deaf.socket.destroy();
    await expect.poll(() => probe.stderr(), { timeout: 5_000 }).toContain("probe: closed");
    await expect(fetch(`http://127.0.0.1:${port}/hello`)).rejects.toThrow();
    expect(await probe.stop()).toEqual({ code: 0, signal: null });
  });
});
