// Keeping the bridge: the watch on the lock directory that wakes the shim, and the connector's
// backoff (1 s → 30 s), give-up, token refusal, and immediate reconnect after a drop. Lock discovery
// needs a dead process and is in test/integration/shim/find-target.test.ts.
import { mkdtemp, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { BridgeLink, ConnectOutcome } from "../../../shim/bridge-link.ts";
import { Connector, type ConnectorOptions } from "../../../shim/connector.ts";
import { watchLocks, type Target } from "../../../shim/discovery.ts";
import { lockFilePort } from "../../../src/lock/lock-fields.ts";

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "shim-locks-"));
});
afterEach(async () => {
  vi.useRealTimers();
  await rm(dir, { recursive: true, force: true });
});

async function lock(port: number, fields: Record<string, unknown>, ageMs = 0): Promise<void> {
  const path = join(dir, `${port}.lock`);
  await writeFile(
    path,
    JSON.stringify({ pid: process.pid, transport: "ws", authToken: `tok-${port}`, workspaceFolders: ["/work/app"], ...fields }),
  );
  const t = new Date(Date.now() - ageMs);
  await utimes(path, t, t);
}

describe("watchLocks", () => {
  it("reports a lock file appearing", async () => {
    const changes: number[] = [];
    const stop = watchLocks(dir, () => changes.push(Date.now()), { pollMs: 100 });
    try {
      await lock(6001, { isBridge: true });
      await vi.waitFor(() => expect(changes.length).toBeGreaterThan(0), { timeout: 2_000 });
    } finally {
      stop();
    }
  });

  it("watches lock names only: checkpoints, spawn markers and temporary files change here too", () => {
    // The watcher's and the poll's filter, so waking for these would need a change here.
    expect(["6001.lock", "1.lock"].map(lockFilePort)).toEqual([6001, 1]);
    const others = [
      "checkpoint-1.json",
      ".checkpoint-1.json.abc.tmp",
      "spawn-0123.pending",
      "6001.lock.tmp",
      ".6001.lock",
      "x.lock",
      "6001.lock~",
    ];
    expect(others.map(lockFilePort)).toEqual(others.map(() => undefined));
  });
});

describe("Connector", () => {
  const target: Target = { port: 7000, token: "t", fromLock: true, isBridge: true };
  const refused: ConnectOutcome = { ok: false, status: 0, body: "connect ECONNREFUSED", code: "ECONNREFUSED" };

  function make(overrides: Partial<ConnectorOptions>) {
    const logs: string[] = [];
    const fatal = vi.fn<(why: "gave-up" | "refused", m: string) => void>();
    let wake: () => void = () => undefined;
    const opts: ConnectorOptions = {
      relay: { attach: vi.fn(async () => undefined) },
      log: { debug: () => undefined, info: (m) => logs.push(m), warn: (m) => logs.push(m), error: (m) => logs.push(m) },
      find: async () => target,
      connect: async () => refused,
      watch: (onChange) => {
        wake = onChange;
        return () => undefined;
      },
      waitingMessage: "waiting for a bridge",
      giveUpMs: 60_000,
      initialBackoffMs: 1_000,
      maxBackoffMs: 30_000,
      onFatal: fatal,
      random: () => 0.5,
      ...overrides,
    };
    return { connector: new Connector(opts), logs, fatal, wake: () => wake() };
  }

  it("backs off 1, 2, 4, 8, 16, 30 s and gives up at the deadline with a clear message", async () => {
    vi.useFakeTimers();
    const start = Date.now();
    const attempts: number[] = [];
    const { connector, fatal, logs } = make({
      connect: async () => {
        attempts.push(Date.now() - start);
        return refused;
      },
    });
    const running = connector.run();
    await vi.advanceTimersByTimeAsync(61_000);
    await running;
    expect(attempts).toEqual([0, 1_000, 3_000, 7_000, 15_000, 31_000]);
    expect(fatal).toHaveBeenCalledTimes(1);
    expect(fatal.mock.calls[0]?.[0]).toBe("gave-up");
    expect(fatal.mock.calls[0]?.[1]).toMatch(/^gave up: no bridge reachable for 60 s/);
    expect(logs[0]).toMatch(/cannot reach the bridge on port 7000 \(ECONNREFUSED/);
  });

  it("tries again at once when a lock file changes", async () => {
    vi.useFakeTimers();
    const start = Date.now();
    const attempts: number[] = [];
    const { connector, wake } = make({
      connect: async () => {
        attempts.push(Date.now() - start);
        return refused;
      },
    });
    void connector.run();
    await vi.advanceTimersByTimeAsync(300);
    wake();
    await vi.advanceTimersByTimeAsync(10);
    expect(attempts).toEqual([0, 300]);
    connector.stop();
  });

  it("does not miss a lock change that happens while it is connecting", async () => {
    vi.useFakeTimers();
    const start = Date.now();
    const attempts: number[] = [];
    let wakeDuringConnect = true;
    const made = make({
      connect: async () => {
        attempts.push(Date.now() - start);
        if (wakeDuringConnect) {
          wakeDuringConnect = false;
          made.wake(); // the new lock appears while the attempt is under way
        }
        return refused;
      },
    });
    void made.connector.run();
    await vi.advanceTimersByTimeAsync(10);
    expect(attempts).toEqual([0, 0]);
    made.connector.stop();
  });

  it("waits without a lock, says so once, and asks for a bridge to be started (--spawn)", async () => {
    vi.useFakeTimers();
    const onNoBridge = vi.fn();
    const { connector, logs } = make({ find: async () => undefined, onNoBridge });
    void connector.run();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(logs.filter((l) => l === "waiting for a bridge")).toHaveLength(1);
    expect(onNoBridge.mock.calls.length).toBeGreaterThan(1);
    connector.stop();
  });

  it("ends on a refused token unless the lock now holds another one", async () => {
    const unauthorized: ConnectOutcome = { ok: false, status: 401, body: "Invalid authentication token" };
    const same = make({ connect: async () => unauthorized });
    await same.connector.run();
    expect(same.fatal.mock.calls[0]?.[0]).toBe("refused");
    expect(same.fatal.mock.calls[0]?.[1]).toMatch(/refused the token \(HTTP 401: Invalid authentication token\)/);

    let token = "old";
    let calls = 0;
    const rotated = make({
      find: async () => ({ ...target, token }),
      connect: async (t) => {
        calls += 1;
        token = "new"; // the bridge restarted and rewrote its lock meanwhile
        return t.token === "old" ? unauthorized : refused;
      },
    });
    void rotated.connector.run();
    await vi.waitFor(() => expect(calls).toBe(2));
    expect(rotated.fatal).not.toHaveBeenCalled();
    rotated.connector.stop();
  });

  it("hands each new socket to the relay and reconnects right after a drop", async () => {
    const links: Array<{ close: (code: number) => void }> = [];
    const connect = async (): Promise<ConnectOutcome> => {
      let onClose: (code: number, reason: string) => void = () => undefined;
      const link: BridgeLink = {
        send: () => undefined,
        bufferedAmount: 0,
        pause: () => undefined,
        resume: () => undefined,
        onMessage: () => undefined,
        onClose: (fn) => {
          onClose = fn;
        },
        close: () => onClose(1000, ""),
      };
      links.push({ close: (code) => onClose(code, "") });
      return { ok: true, link };
    };
    const { connector, logs } = make({ connect });
    void connector.run();
    await vi.waitFor(() => expect(links).toHaveLength(1));
    links[0]?.close(1006);
    await vi.waitFor(() => expect(links).toHaveLength(2));
    expect(logs).toContain("bridge connection closed (code 1006); reconnecting");
    connector.stop();
  });
});
