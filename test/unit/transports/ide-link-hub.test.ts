// The IDE link's notifications (protocol.md A6): selection_changed debounced to the last selection
// and sent to every initialized Claude Code; at_mentioned queued until one is there, 25 ms apart; a
// client that leaves takes its pending diffs with it.
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import type { JsonRpcMessage } from "../../../src/mcp/protocol/jsonrpc.ts";
import { IdeLinkHub, MENTION_SPACING_MS, SELECTION_DEBOUNCE_MS } from "../../../src/transports/ws/ide-link-hub.ts";
import { connectedExtension } from "../../helpers/fake-extension.ts";

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

function client(session: string, ready: { now: boolean }) {
  const sent: JsonRpcMessage[] = [];
  return { sent, entry: { session, sink: { send: (m: JsonRpcMessage) => sent.push(m) }, ready: () => ready.now } };
}

const selection = (line: number) => ({
  text: `line ${line}`,
  filePath: "/ws/a.ts",
  fileUrl: "file:///ws/a.ts",
  selection: { start: { line, character: 0 }, end: { line, character: 4 }, isEmpty: false },
});

it("sends one selection_changed, the last, 100 ms after a burst, to every initialized client", async () => {
  const fake = connectedExtension();
  const hub = new IdeLinkHub(fake.client);
  const a = client("a", { now: true });
  const b = client("b", { now: true });
  const notYet = client("c", { now: false });
  hub.add(a.entry);
  hub.add(b.entry);
  hub.add(notYet.entry);
  for (let line = 0; line < 5; line++) fake.push("extension/selectionChanged", selection(line));
  await vi.advanceTimersByTimeAsync(SELECTION_DEBOUNCE_MS - 1);
  expect(a.sent).toEqual([]);
  await vi.advanceTimersByTimeAsync(1);
  expect(a.sent).toEqual([{ jsonrpc: "2.0", method: "selection_changed", params: selection(4) }]);
  expect(b.sent).toEqual(a.sent);
  expect(notYet.sent).toEqual([]);
  hub.stop();
});

it("queues at_mentioned until a client is ready, then sends them 25 ms apart with 0-based lines", async () => {
  const fake = connectedExtension();
  const hub = new IdeLinkHub(fake.client);
  const ready = { now: false };
  const c = client("a", ready);
  hub.add(c.entry);
  fake.push("extension/atMentioned", { filePath: "/ws/a.ts", lineStart: 0, lineEnd: 2 });
  fake.push("extension/atMentioned", { filePath: "/ws/dir" });
  hub.activity();
  expect(c.sent).toEqual([]);
  ready.now = true;
  hub.activity();
  expect(c.sent).toEqual([{ jsonrpc: "2.0", method: "at_mentioned", params: { filePath: "/ws/a.ts", lineStart: 0, lineEnd: 2 } }]);
  await vi.advanceTimersByTimeAsync(MENTION_SPACING_MS);
  expect(c.sent.at(-1)).toEqual({ jsonrpc: "2.0", method: "at_mentioned", params: { filePath: "/ws/dir" } });
  hub.stop();
});

it("rejects and closes the diffs of a client that disconnects, and only its own", async () => {
  const fake = connectedExtension({
    "extension/openDiff": () => ({ shown: true }),
    "extension/closeDiffs": (p) => ({ closed: p.tabNames.length }),
  });
  const hub = new IdeLinkHub(fake.client);
  const leave = hub.add(client("s1", { now: true }).entry);
  const signal = new AbortController().signal;
  const params = (tabName: string) => ({ oldFilePath: "/ws/a.ts", newFilePath: "/ws/a.ts", newContents: "x", tabName });
  const mine = fake.client.openDiff(params("mine"), { owner: "s1", signal });
  const theirs = fake.client.openDiff(params("theirs"), { owner: "s2", signal });
  await vi.advanceTimersByTimeAsync(0);
  leave();
  await expect(mine).resolves.toEqual({ outcome: "rejected" });
  await vi.advanceTimersByTimeAsync(0);
  expect(fake.requests("extension/closeDiffs").at(-1)?.params).toEqual({ tabNames: ["mine"] });
  expect(fake.client.diffs.tabs()).toEqual(["theirs"]);
  fake.push("extension/diffResolved", { tabName: "theirs", outcome: "rejected" });
  await theirs;
  hub.stop();
});
