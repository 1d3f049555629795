// The shim's relay (shim/relay.ts) against a scripted bridge socket: queueing while disconnected,
// the attach notice, replaying initialize on a new session (and swallowing its answer), errors
// for requests in flight at a drop, the bounded queue.
import { afterEach, describe, expect, it, vi } from "vitest";
import type { BridgeLink } from "../../../shim/bridge-link.ts";
import { classifyLine } from "../../../shim/messages.ts";
import { Relay } from "../../../shim/relay.ts";
import { ATTACH_NOTICE_METHOD } from "../../../src/wire.ts";

type Json = Record<string, unknown>;

/** A bridge socket whose frames the test sends; `early` frames arrive with the handshake. */
class FakeLink implements BridgeLink {
  sent: Json[] = [];
  bufferedAmount = 0;
  private onMsg: ((text: string) => void) | undefined;
  private onCls: Array<(code: number, reason: string) => void> = [];
  constructor(private early: Json[] = []) {}
  send(text: string): void {
    this.sent.push(JSON.parse(text) as Json);
  }
  close(code = 1000): void {
    for (const fn of this.onCls) fn(code, "");
  }
  pause(): void {}
  resume(): void {}
  onMessage(fn: (text: string) => void): void {
    this.onMsg = fn;
    for (const m of this.early.splice(0)) fn(JSON.stringify(m));
  }
  onClose(fn: (code: number, reason: string) => void): void {
    this.onCls.push(fn);
  }
  deliver(message: Json): void {
    this.deliverText(JSON.stringify(message));
  }
  /** A frame exactly as given (not necessarily JSON). */
  deliverText(text: string): void {
    this.onMsg?.(text);
  }
  /** Answers the last request sent with `result`. */
  answerLast(result: Json): void {
    const last = this.sent[this.sent.length - 1];
    this.deliver({ jsonrpc: "2.0", id: last?.id, result });
  }
}

const notice = (resumed: boolean, initialized: boolean) => ({
  jsonrpc: "2.0",
  method: ATTACH_NOTICE_METHOD,
  params: { session: "s-1", resumed, initialized },
});
const INIT = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c" } },
};
const INIT_RESULT = {
  protocolVersion: "2025-11-25",
  capabilities: { tools: { listChanged: true } },
  serverInfo: { name: "claude-ide-bridge" },
};
const call = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "x", arguments: {} } });

function setup(maxQueue = 1000) {
  const out: Json[] = [];
  const raw: string[] = [];
  const logs: string[] = [];
  const log = {
    debug: (m: string) => logs.push(m),
    info: (m: string) => logs.push(m),
    warn: (m: string) => logs.push(`warn ${m}`),
    error: (m: string) => logs.push(`error ${m}`),
  };
  const relay = new Relay({
    writeClient: (line) => {
      raw.push(line);
      out.push(JSON.parse(line) as Json);
      return true;
    },
    log,
    maxQueue,
    noticeTimeoutMs: 50,
    replayTimeoutMs: 500,
  });
  const client = (m: Json) => relay.fromClient(classifyLine(JSON.stringify(m)));
  return { relay, out, raw, logs, client };
}

/** Connects a first link and initializes through it. */
async function initialized(t: ReturnType<typeof setup>): Promise<FakeLink> {
  const link = new FakeLink([notice(false, false)]);
  await t.relay.attach(link, { expectNotice: true });
  t.client(INIT);
  link.answerLast(INIT_RESULT);
  t.client({ jsonrpc: "2.0", method: "notifications/initialized" });
  return link;
}

afterEach(() => {
  vi.useRealTimers();
});

describe("Relay", () => {
  it("queues what the client sends before a bridge is there and sends it in order once attached", async () => {
    const t = setup();
    t.client(INIT);
    t.client({ jsonrpc: "2.0", method: "notifications/initialized" });
    t.client(call(2));
    expect(t.relay.outstanding).toBe(2);
    const link = new FakeLink([notice(false, false)]);
    await t.relay.attach(link, { expectNotice: true });
    expect(link.sent.map((m) => m.method)).toEqual(["initialize", "notifications/initialized", "tools/call"]);
    link.deliver({ jsonrpc: "2.0", id: 1, result: INIT_RESULT });
    expect(t.out).toEqual([{ jsonrpc: "2.0", id: 1, result: INIT_RESULT }]);
  });

  it("takes the notice even when it came with the handshake, and never passes it on", async () => {
    // A fake clock: attach can end only by taking the notice, never by its 50 ms timeout, however
    // long a loaded machine takes to run it (a wall-clock bound under 50 ms is not safe under load).
    vi.useFakeTimers();
    const t = setup();
    const link = new FakeLink([notice(false, false)]);
    let attached = false;
    void t.relay.attach(link, { expectNotice: true }).then(() => {
      attached = true;
    });
    await vi.advanceTimersByTimeAsync(49);
    expect(attached).toBe(true);
    expect(t.out).toEqual([]);
    expect(t.logs.join("\n")).toMatch(/bridge session s-1: new/);
  });

  it("on a new session, replays initialize, initialized and the log level, swallows the answer, then sends the queue", async () => {
    const t = setup();
    const first = await initialized(t);
    t.client({ jsonrpc: "2.0", id: 2, method: "logging/setLevel", params: { level: "error" } });
    first.answerLast({});
    first.close(1006);
    t.client(call(3));

    const second = new FakeLink([notice(false, false)]);
    const attaching = t.relay.attach(second, { expectNotice: true });
    await vi.waitFor(() => expect(second.sent).toHaveLength(1));
    const replayed = second.sent[0] as Json;
    expect(replayed).toMatchObject({ method: "initialize", params: INIT.params });
    expect(String(replayed.id)).toMatch(/^claude-ide-bridge-shim\//);
    second.deliver({ jsonrpc: "2.0", id: replayed.id, result: INIT_RESULT });
    await attaching;
    expect(second.sent.map((m) => m.method)).toEqual(["initialize", "notifications/initialized", "logging/setLevel", "tools/call"]);
    second.deliver({ jsonrpc: "2.0", id: second.sent[2]?.id, result: {} });
    // The client saw one initialize result, the setLevel result, and a tools/list_changed hint; nothing replayed.
    expect(t.out.filter((m) => m.id === 1)).toHaveLength(1);
    expect(t.out.map((m) => m.id ?? m.method)).toEqual([1, 2, "notifications/tools/list_changed"]);
  });

  it("on a resumed initialized session replays nothing", async () => {
    const t = setup();
    const first = await initialized(t);
    first.close(1006);
    const second = new FakeLink([notice(true, true)]);
    await t.relay.attach(second, { expectNotice: true });
    t.client(call(5));
    expect(second.sent.map((m) => m.method)).toEqual(["tools/call"]);
  });

  it("without a notice (older bridge), replays and swallows an 'already initialized' refusal", async () => {
    const t = setup();
    const first = await initialized(t);
    first.close(1006);
    const second = new FakeLink();
    const attaching = t.relay.attach(second, { expectNotice: true });
    await vi.waitFor(() => expect(second.sent).toHaveLength(1));
    second.deliver({
      jsonrpc: "2.0",
      id: second.sent[0]?.id,
      error: { code: -32600, message: "Invalid Request: session already initialized" },
    });
    await attaching;
    expect(t.out.some((m) => "error" in m)).toBe(false);
  });

  it("answers requests in flight at a drop with an error, and resends an initialize that was in flight", async () => {
    const t = setup();
    const first = new FakeLink([notice(false, false)]);
    await t.relay.attach(first, { expectNotice: true });
    t.client(INIT);
    first.close(1006);
    const second = new FakeLink([notice(false, false)]);
    await t.relay.attach(second, { expectNotice: true });
    expect(second.sent).toEqual([INIT]); // the client's own id: its answer goes to the client
    second.answerLast(INIT_RESULT);
    t.client(call(2));
    second.close(1006);
    const lost = t.out.find((m) => m.id === 2) as { error: { code: number; message: string; data: { reason: string } } };
    expect(lost.error.code).toBe(-32000);
    expect(lost.error.data.reason).toBe("bridge_disconnected");
    expect(lost.error.message).toMatch(/lost while tools\/call was in flight/);
    // A late answer from a dead socket is not passed on.
    second.deliver({ jsonrpc: "2.0", id: 2, result: {} });
    expect(t.out.filter((m) => m.id === 2)).toHaveLength(1);
  });

  it("answers requests beyond the queue bound with an error and notes dropped notifications", () => {
    const t = setup(2);
    t.client(call(1));
    t.client(call(2));
    t.client(call(3));
    t.client({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } });
    expect(t.out).toHaveLength(1);
    expect(t.out[0]).toMatchObject({ id: 3, error: { code: -32000, data: { reason: "queue_full" } } });
    expect(t.logs.join("\n")).toMatch(/dropped a notifications\/cancelled notification/);
  });

  it("failAll answers everything outstanding", async () => {
    const t = setup();
    const link = await initialized(t);
    t.client(call(2));
    link.close(1006);
    t.out.length = 0;
    t.client(call(3));
    t.client(call(4));
    t.relay.failAll("gave up", "bridge_unreachable");
    expect(t.out.map((m) => m.id)).toEqual([3, 4]);
    expect(t.relay.outstanding).toBe(0);
  });

  it("re-frames a bridge message that contains raw newlines (stdio is one message per line)", async () => {
    const t = setup();
    const link = await initialized(t);
    t.out.length = 0;
    link.deliverText('{\n"jsonrpc": "2.0",\n"method": "notifications/message",\n"params": {}\n}');
    expect(t.out).toEqual([{ jsonrpc: "2.0", method: "notifications/message", params: {} }]);
    expect(t.raw.every((line) => !line.includes("\n"))).toBe(true);
    link.deliverText("not json at all");
    expect(t.out).toHaveLength(1);
    expect(t.logs.join("\n")).toMatch(/dropped a 15-char frame from the bridge that is not JSON/);
  });
});

describe("Relay with a modern (2026-07-28) client", () => {
  const LISTEN = {
    jsonrpc: "2.0",
    id: "sub",
    method: "subscriptions/listen",
    params: { notifications: { toolsListChanged: true }, _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } },
  };
  const ack = {
    jsonrpc: "2.0",
    method: "notifications/subscriptions/acknowledged",
    params: { _meta: { "io.modelcontextprotocol/subscriptionId": "sub" } },
  };

  it("keeps an open subscriptions/listen across a bridge restart: sent again, its second ack dropped, list_changed told", async () => {
    const t = setup();
    const first = new FakeLink([notice(false, false)]);
    await t.relay.attach(first, { expectNotice: true });
    t.client(LISTEN);
    first.deliver(ack);
    expect(t.out).toEqual([ack]);
    first.close(1006);
    expect(t.out).toHaveLength(1); // no "connection lost" error for the open subscription
    const second = new FakeLink([notice(false, false)]);
    await t.relay.attach(second, { expectNotice: true });
    expect(second.sent).toEqual([LISTEN]);
    second.deliver(ack);
    expect(t.out.slice(1)).toEqual([
      {
        jsonrpc: "2.0",
        method: "notifications/tools/list_changed",
        params: { _meta: { "io.modelcontextprotocol/subscriptionId": "sub" } },
      },
    ]);
  });

  it("does not send a subscription again to a resumed session, nor one the client cancelled", async () => {
    const t = setup();
    const first = new FakeLink([notice(false, false)]);
    await t.relay.attach(first, { expectNotice: true });
    t.client(LISTEN);
    first.close(1006);
    const resumed = new FakeLink([notice(true, false)]);
    await t.relay.attach(resumed, { expectNotice: true });
    expect(resumed.sent).toEqual([]);
    t.client({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "sub" } });
    resumed.close(1006);
    const fresh = new FakeLink([notice(false, false)]);
    await t.relay.attach(fresh, { expectNotice: true });
    expect(fresh.sent).toEqual([]);
  });
});

describe("Relay without a bridge", () => {
  const unavailable = { code: -32000, message: "claude-ide-bridge: no bridge serves /w", reason: "bridge_unreachable" as const };

  it("leaves server/discover to the bridge; with no bridge to be had it answers -32601 itself, so the client falls back", async () => {
    const t = setup();
    t.client({ jsonrpc: "2.0", id: "queued", method: "server/discover", params: {} });
    expect(t.out).toEqual([]);
    t.relay.setUnavailable(unavailable);
    t.client({ jsonrpc: "2.0", id: "later", method: "server/discover", params: {} });
    expect(t.out.map((m) => [m.id, (m.error as Json).code, ((m.error as Json).data as Json).reason])).toEqual([
      ["queued", -32601, "legacy_protocol"],
      ["later", -32601, "legacy_protocol"],
    ]);
    expect(t.relay.outstanding).toBe(0);
    const link = new FakeLink([notice(false, false)]);
    await t.relay.attach(link, { expectNotice: true });
    t.client({ jsonrpc: "2.0", id: 9, method: "server/discover", params: {} });
    expect(link.sent.at(-1)).toMatchObject({ id: 9, method: "server/discover" });
  });

  it("answers what was queued and every later request with the reason, until a bridge attaches", async () => {
    const t = setup();
    t.client(INIT);
    t.client({ jsonrpc: "2.0", method: "notifications/initialized" });
    t.relay.setUnavailable(unavailable);
    t.client(call(2));
    expect(t.out.map((m) => [m.id, (m.error as Json).message])).toEqual([
      [1, unavailable.message],
      [2, unavailable.message],
    ]);
    expect(t.relay.outstanding).toBe(0);
    const link = new FakeLink([notice(false, false)]);
    await t.relay.attach(link, { expectNotice: true });
    t.client(call(3));
    expect(link.sent.at(-1)).toMatchObject({ id: 3, method: "tools/call" });
  });
});
