// Session checkpoints: the store's sessions go to checkpoint-<port>.json (0600) and come
// back, initialized with their protocol version, client info, log level and counters, in a new
// store, each waiting out a grace period for its client.
import { mkdtemp, readFile, rm, stat, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createNodeRuntime } from "../../../runtime/node.ts";
import type { Runtime } from "../../../src/ports/runtime.ts";
import { silentLogger, type Logger } from "../../../src/log.ts";
import {
  CHECKPOINT_MAX_AGE_MS,
  checkpointPath,
  cleanStaleCheckpoints,
  readCheckpoint,
  SessionCheckpoint,
} from "../../../src/mcp/sessions/session-checkpoint.ts";
import { SessionStore } from "../../../src/mcp/sessions/session-store.ts";
import { makeSession } from "../../helpers/session-fixture.ts";

let dir: string;
let runtime: Runtime;
const PORT = 45678;
const sink = { send: () => undefined };
const CLIENT = "0c9b0a52-1b5e-4a39-9b1c-6f1f4b6a2f10";

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "checkpoint-"));
  runtime = { ...createNodeRuntime(), env: { CLAUDE_CONFIG_DIR: dir } };
});
afterEach(async () => {
  vi.useRealTimers();
  await rm(dir, { recursive: true, force: true });
});

const newStore = (graceMs = 60_000) => new SessionStore({ createSession: () => makeSession().session, graceMs, logger: silentLogger });

async function storeWithInitializedSession(): Promise<SessionStore> {
  const store = newStore();
  const { session } = store.attach(CLIENT, { sink, evictSocket: () => undefined });
  const call = (id: number, method: string, params: Record<string, unknown>) =>
    session.handleText(JSON.stringify({ jsonrpc: "2.0", id, method, params }));
  await call(1, "initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "claude-code", version: "2.1.197" } });
  await call(2, "logging/setLevel", { level: "warning" });
  await call(3, "tools/call", { name: "echo", arguments: { text: "hi" } });
  await call(4, "tools/call", { name: "failing", arguments: { expected: true } });
  store.attach("anonymous-but-not-initialized", { sink, evictSocket: () => undefined });
  return store;
}

function initializeMessage(clientName: string) {
  return {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: clientName, version: "1" } },
  };
}

function warnings(): { logger: Logger; seen: string[] } {
  const seen: string[] = [];
  return { seen, logger: { ...silentLogger, warn: (m) => seen.push(m) } };
}

describe("SessionCheckpoint", () => {
  it("writes initialized sessions to checkpoint-<port>.json with mode 0600, and a new store gets them back", async () => {
    const store = await storeWithInitializedSession();
    const checkpoint = new SessionCheckpoint({ runtime, port: PORT, store, logger: silentLogger });
    await checkpoint.flush();
    const path = join(dir, "ide", `checkpoint-${PORT}.json`);
    expect(checkpoint.path).toBe(path);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    const json = JSON.parse(await readFile(path, "utf8"));
    expect(json).toMatchObject({ version: 1, port: PORT, sessions: [{ clientId: CLIENT }] });
    expect(json.sessions).toHaveLength(1); // the uninitialized session is not worth keeping

    const restarted = newStore();
    const restored = restarted.restore(await readCheckpoint(runtime, PORT, { logger: silentLogger }));
    expect(restored).toBe(1);
    expect(restarted.inGrace).toBe(1);
    const back = restarted.attach(CLIENT, { sink, evictSocket: () => undefined });
    expect(back.resumed).toBe(true);
    expect(back.session.initialized).toBe(true);
    expect(back.session.exportState()).toEqual({
      protocolVersion: "2025-06-18",
      clientInfo: { name: "claude-code", version: "2.1.197" },
      logLevel: "warning",
      stats: { callCount: 2, errorCount: 1 },
    });
    // Initialized means it serves at once, no initialize needed.
    const listed = await back.session.handleText(JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/list" }));
    expect(listed && "result" in listed).toBe(true);
    restarted.closeAll();
    store.closeAll();
  });

  it("writes a new or changed session soon, counters at most every statsIntervalMs, and refreshes savedAt", async () => {
    const store = await storeWithInitializedSession();
    const fs = { ...runtime.fs, writeFileAtomic: vi.fn(runtime.fs.writeFileAtomic) };
    let now = 1_000_000;
    const checkpoint = new SessionCheckpoint({
      runtime: { ...runtime, fs },
      port: PORT,
      store,
      logger: silentLogger,
      minWriteIntervalMs: 1_000,
      statsIntervalMs: 5_000,
      refreshMs: 60_000,
      now: () => now,
    });
    const writes = () => fs.writeFileAtomic.mock.calls.length;
    await checkpoint.flush();
    await checkpoint.flush();
    expect(writes()).toBe(1);
    const { session } = store.attach(CLIENT, { sink, evictSocket: () => undefined });
    await session.handleText(
      JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "echo", arguments: { text: "x" } } }),
    );
    now += 1_000;
    await checkpoint.flush();
    expect(writes()).toBe(1); // only a counter changed
    now += 5_000;
    await checkpoint.flush();
    expect(writes()).toBe(2);
    await session.handleText(JSON.stringify({ jsonrpc: "2.0", id: 8, method: "logging/setLevel", params: { level: "debug" } }));
    await checkpoint.flush();
    expect(writes()).toBe(2); // a change right after a write waits for minWriteIntervalMs
    now += 1_000;
    await checkpoint.flush();
    expect(writes()).toBe(3); // the log level is part of the session's shape
    now += 61_000;
    await checkpoint.flush();
    expect(writes()).toBe(4);
    store.closeAll();
    await checkpoint.stop();
    await expect(stat(checkpoint.path)).rejects.toThrow(/ENOENT/);
  });

  it("coalesces churn: sessions coming and going every 10 ms cost one write a second, the latest state kept", async () => {
    const store = newStore();
    const fs = { ...runtime.fs, writeFileAtomic: vi.fn(runtime.fs.writeFileAtomic) };
    let now = 1_000_000;
    const checkpoint = new SessionCheckpoint({ runtime: { ...runtime, fs }, port: PORT, store, logger: silentLogger, now: () => now });
    let last = "";
    for (let i = 0; i < 200; i++) {
      last = `churn-client-${i}`;
      const attachment = store.attach(last, { sink, evictSocket: () => undefined });
      await attachment.session.handleText(JSON.stringify(initializeMessage("churner")));
      attachment.detach();
      now += 10;
      await checkpoint.flush(); // as the CHECKPOINT_CHECK_MS timer would
    }
    expect(fs.writeFileAtomic.mock.calls.length).toBeLessThanOrEqual(3); // 2 s of churn
    now += 1_000;
    await checkpoint.flush();
    const saved = JSON.parse(await readFile(checkpoint.path, "utf8")) as { sessions: Array<{ clientId: string }> };
    expect(saved.sessions[0]?.clientId).toBe(last);
    store.closeAll();
  });

  it("bounds the file: at most the store's bound, the most recently active first, client names clipped", async () => {
    const store = new SessionStore({ createSession: () => makeSession().session, graceMs: 60_000, maxSessions: 3, logger: silentLogger });
    for (let i = 0; i < 10; i++) {
      const { session } = store.attach(`bounded-client-${i}`, { sink, evictSocket: () => undefined });
      await session.handleText(JSON.stringify(initializeMessage("x".repeat(100_000))));
    }
    const checkpoint = new SessionCheckpoint({ runtime, port: PORT, store, logger: silentLogger });
    await checkpoint.flush();
    const text = await readFile(checkpoint.path, "utf8");
    const saved = JSON.parse(text) as { sessions: Array<{ clientId: string; state: { clientInfo: { name: string } } }> };
    expect(saved.sessions.map((s) => s.clientId)).toHaveLength(3);
    expect(saved.sessions[0]?.state.clientInfo.name).toHaveLength(100);
    expect(text.length).toBeLessThan(3 * 1024);
    store.closeAll();
  });

  it("flushes on its interval once started", async () => {
    const store = await storeWithInitializedSession();
    const checkpoint = new SessionCheckpoint({ runtime, port: PORT, store, logger: silentLogger, checkMs: 20 });
    checkpoint.start();
    await vi.waitFor(async () => expect((await stat(checkpoint.path)).isFile()).toBe(true));
    await checkpoint.stop();
    store.closeAll();
  });

  it("ignores checkpoints that are stale, of another port, or malformed, with a warning for the malformed", async () => {
    const store = await storeWithInitializedSession();
    const checkpoint = new SessionCheckpoint({ runtime, port: PORT, store, logger: silentLogger });
    await checkpoint.flush();
    store.closeAll();
    const saved = JSON.parse(await readFile(checkpoint.path, "utf8")) as { savedAt: number };
    expect(await readCheckpoint(runtime, PORT, { logger: silentLogger, now: saved.savedAt + CHECKPOINT_MAX_AGE_MS + 1 })).toEqual([]);
    expect(await readCheckpoint(runtime, PORT + 1, { logger: silentLogger })).toEqual([]);

    const { logger, seen } = warnings();
    await writeFile(checkpoint.path, "{ not json");
    expect(await readCheckpoint(runtime, PORT, { logger })).toEqual([]);
    await writeFile(
      checkpoint.path,
      JSON.stringify({
        version: 1,
        port: PORT,
        savedAt: Date.now(),
        sessions: [{ clientId: CLIENT, state: { protocolVersion: "1999-01-01", stats: { callCount: 0, errorCount: 0 } } }],
      }),
    );
    expect(await readCheckpoint(runtime, PORT, { logger })).toEqual([]);
    expect(seen).toHaveLength(2);
    expect(seen[1]).toMatch(/sessions\.0\.state\.protocolVersion/);
  });

  it("removes other ports' checkpoints only when they are too old to restore", async () => {
    await runtime.fs.mkdir(join(dir, "ide"), { recursive: true });
    const old = checkpointPath(runtime, 1111);
    const fresh = checkpointPath(runtime, 2222);
    await writeFile(old, "{}");
    await writeFile(fresh, "{}");
    await writeFile(join(dir, "ide", "1111.lock"), "{}");
    const past = new Date(Date.now() - CHECKPOINT_MAX_AGE_MS - 60_000);
    await utimes(old, past, past);
    expect(await cleanStaleCheckpoints(runtime)).toEqual([old]);
    expect((await stat(fresh)).isFile()).toBe(true);
    expect((await stat(join(dir, "ide", "1111.lock"))).isFile()).toBe(true);
  });
});

describe("SessionStore: restore and end", () => {
  const state = { protocolVersion: "2025-11-25" as const, stats: { callCount: 3, errorCount: 0 } };

  it("ends restored sessions nobody comes back for when the grace period is over", () => {
    vi.useFakeTimers();
    const store = newStore(1_000);
    expect(store.restore([{ clientId: CLIENT, state }])).toBe(1);
    vi.advanceTimersByTime(1_001);
    expect(store.inGrace).toBe(0);
    expect(store.attach(CLIENT, { sink, evictSocket: () => undefined }).resumed).toBe(false);
    store.closeAll();
  });

  it("end() drops the session at once (a shim that exits), but not from a superseded socket", () => {
    const store = newStore();
    const old = store.attach(CLIENT, { sink, evictSocket: () => undefined });
    const current = store.attach(CLIENT, { sink, evictSocket: () => undefined });
    old.end("client done");
    expect(current.session.closed).toBe(false);
    current.end("client done");
    expect(current.session.closed).toBe(true);
    expect(store.active + store.inGrace).toBe(0);
    expect(store.attach(CLIENT, { sink, evictSocket: () => undefined }).resumed).toBe(false);
    store.closeAll();
  });

  it("skips malformed client ids and ids already in use", () => {
    const store = newStore();
    const live = store.attach(CLIENT, { sink, evictSocket: () => undefined });
    expect(
      store.restore([
        { clientId: CLIENT, state },
        { clientId: "bad id!", state },
      ]),
    ).toBe(0);
    expect(store.attach(CLIENT, { sink, evictSocket: () => undefined }).session).toBe(live.session);
    store.closeAll();
  });

  it("restores only into a new session (importState refuses an initialized one)", async () => {
    const { session, init } = makeSession();
    expect(session.exportState()).toBeUndefined();
    await init();
    expect(() => session.importState(state)).toThrow(/only a new session/);
  });
});
