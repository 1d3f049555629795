// The ExtensionClient against an in-process fake extension socket (test/helpers/fake-extension.ts):
// hello and its version check, per-method timeouts, the pending cap, the circuit breaker through
// closed -> open -> half-open -> closed, generation guards when a newer socket takes over, the
// capped push state, and pending diffs.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { MAX_PENDING } from "../../../src/extension/extension-client.ts";
import { ExtensionUnavailable } from "../../../src/extension/extension-unavailable.ts";
import {
  DEFAULT_TIMEOUT_MS,
  ExtensionClose,
  MAX_ACTIVE_FILE_CHARS,
  MAX_AI_COMMENTS,
  MAX_DIAGNOSTIC_FILES,
  SLOW_TIMEOUT_MS,
  timeoutFor,
} from "../../../src/extension/protocol.ts";
import { extensionClient, FakeExtension } from "../../helpers/fake-extension.ts";

const folders = { folders: [{ name: "ws", uri: "file:///ws", path: "/ws" }] };
const never = () => ({ never: true }) as const;

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

async function reason(promise: Promise<unknown>): Promise<string> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  return err instanceof ExtensionUnavailable ? err.reason : `not ExtensionUnavailable: ${String(err)}`;
}

describe("hello", () => {
  it("connects on a compatible hello and answers with the bridge's versions", () => {
    const fake = new FakeExtension(extensionClient()).connect({ folders: folders.folders });
    expect(fake.client.connected).toBe(true);
    expect(fake.helloAnswer).toMatchObject({ result: { protocolVersion: "1.5.0", bridgeVersion: "0.1.0-test", workspace: "/ws" } });
    expect(fake.client.status()).toMatchObject({
      state: "connected",
      breaker: "closed",
      info: { appName: "Fake Code", ideVersion: "1.100.3" },
    });
    expect(fake.client.state.folders).toEqual(folders.folders);
  });

  it("refuses another major version with a message saying what to do, and closes the socket", () => {
    const fake = new FakeExtension(extensionClient()).connect({ protocolVersion: "2.0.0" });
    expect(fake.client.connected).toBe(false);
    expect(fake.helloAnswer).toMatchObject({
      error: { code: -32010, message: expect.stringMatching(/protocol 2\.0\.0.*1\.5\.0.*install-extension/) },
    });
    expect(fake.closes).toEqual([{ code: ExtensionClose.incompatible, reason: "incompatible protocol version" }]);
  });

  it("closes a socket that never says hello, and is not connected meanwhile", async () => {
    const client = extensionClient({ helloTimeoutMs: 1_000 });
    const closes: number[] = [];
    client.attach({ send: () => undefined, close: (code) => closes.push(code) });
    expect(client.status().state).toBe("handshaking");
    expect(await reason(client.request("extension/getSelection", {}))).toBe("disconnected");
    await vi.advanceTimersByTimeAsync(1_000);
    expect(closes).toEqual([ExtensionClose.noHello]);
    expect(client.status().state).toBe("disconnected");
  });
});

describe("requests", () => {
  it("answers with the result checked against the protocol, and refuses a wrong shape", async () => {
    let shape: unknown = { selection: null };
    const fake = new FakeExtension(extensionClient(), { "extension/getSelection": () => shape as { selection: null } }).connect();
    await expect(fake.client.request("extension/getSelection", {})).resolves.toEqual({ selection: null });
    shape = { selection: 42 };
    await expect(fake.client.request("extension/getSelection", {})).rejects.toThrow(/unexpected shape.*selection/);
  });

  it("turns the extension's failure into a ToolError with its code and suggestion", async () => {
    const fake = new FakeExtension(extensionClient()).connect();
    const answered = fake.client.request("extension/getOpenEditors", {});
    await expect(answered).rejects.toMatchObject({
      code: "tool_failed",
      message: expect.stringMatching(/no handler for extension\/getOpenEditors/),
    });
  });

  it("times out after 10 s (15 s for the slow features), and a cancelled request is withdrawn", async () => {
    expect(timeoutFor("extension/getSelection", {})).toBe(DEFAULT_TIMEOUT_MS);
    expect(timeoutFor("extension/languageFeature", { feature: "rename" })).toBe(SLOW_TIMEOUT_MS);
    expect(timeoutFor("extension/languageFeature", { feature: "definition" })).toBe(DEFAULT_TIMEOUT_MS);
    const fake = new FakeExtension(extensionClient(), { "extension/getSelection": never }).connect();
    const waiting = reason(fake.client.request("extension/getSelection", {}));
    await vi.advanceTimersByTimeAsync(DEFAULT_TIMEOUT_MS - 1);
    expect(fake.client.status().pending).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(await waiting).toBe("timeout");
    const controller = new AbortController();
    const cancelled = fake.client.request("extension/getSelection", {}, { signal: controller.signal });
    controller.abort();
    await expect(cancelled).rejects.toMatchObject({ code: "cancelled" });
    expect(fake.received.at(-1)).toMatchObject({ method: "extension/cancelRequest" });
    expect(fake.client.status().pending).toBe(0);
  });

  it(`refuses the ${MAX_PENDING + 1}th request in flight at once`, async () => {
    const fake = new FakeExtension(extensionClient(), { "extension/getSelection": never }).connect();
    const all = Array.from({ length: MAX_PENDING }, () => fake.client.request("extension/getSelection", {}).catch(() => undefined));
    expect(await reason(fake.client.request("extension/getSelection", {}))).toBe("busy");
    fake.disconnect();
    await Promise.all(all);
  });
});

describe("circuit breaker", () => {
  it("opens after 3 timeouts in 30 s, fails fast, lets one probe through after the backoff, and closes on its answer", async () => {
    let hung = true;
    const fake = new FakeExtension(extensionClient({ random: () => 0.5 }), {
      "extension/getSelection": () => (hung ? never() : { selection: null }),
    }).connect();
    for (let i = 0; i < 3; i++) {
      const r = reason(fake.client.request("extension/getSelection", {}));
      await vi.advanceTimersByTimeAsync(DEFAULT_TIMEOUT_MS);
      expect(await r).toBe("timeout");
    }
    expect(fake.client.status()).toMatchObject({ state: "not_answering", breaker: "open", retryInMs: 500 });
    expect(fake.client.connected).toBe(false);
    const sent = fake.requests().length;
    expect(await reason(fake.client.request("extension/getSelection", {}))).toBe("circuit_open");
    expect(fake.requests()).toHaveLength(sent); // failed fast: nothing went out
    await vi.advanceTimersByTimeAsync(500);
    expect(fake.client.status().breaker).toBe("half-open");
    // The probe times out too: open again, for longer (the cap doubled: random 0.5 of 2 s).
    const probe = reason(fake.client.request("extension/getSelection", {}));
    expect(await reason(fake.client.request("extension/getSelection", {}))).toBe("circuit_open"); // only one probe
    await vi.advanceTimersByTimeAsync(DEFAULT_TIMEOUT_MS);
    expect(await probe).toBe("timeout");
    expect(fake.client.status()).toMatchObject({ breaker: "open", retryInMs: 1_000 });
    await vi.advanceTimersByTimeAsync(1_000);
    hung = false;
    await expect(fake.client.request("extension/getSelection", {})).resolves.toEqual({ selection: null });
    expect(fake.client.status()).toMatchObject({ state: "connected", breaker: "closed" });
  });

  it("forgets timeouts older than 30 s, and answers that are errors count as answers", async () => {
    const fake = new FakeExtension(extensionClient(), { "extension/getSelection": never }).connect();
    for (let i = 0; i < 2; i++) {
      const r = fake.client.request("extension/getSelection", {}).catch(() => undefined);
      await vi.advanceTimersByTimeAsync(DEFAULT_TIMEOUT_MS);
      await r;
    }
    await vi.advanceTimersByTimeAsync(30_000);
    const third = fake.client.request("extension/getSelection", {}).catch(() => undefined);
    await vi.advanceTimersByTimeAsync(DEFAULT_TIMEOUT_MS);
    await third;
    expect(fake.client.status().breaker).toBe("closed");
    await fake.client.request("extension/getOpenEditors", {}).catch(() => undefined); // an error answer
    expect(fake.client.status().breaker).toBe("closed");
  });

  it("starts closed again on a new connection", async () => {
    const client = extensionClient({ random: () => 0.99 });
    const first = new FakeExtension(client, { "extension/getSelection": never }).connect();
    for (let i = 0; i < 3; i++) {
      const r = first.client.request("extension/getSelection", {}).catch(() => undefined);
      await vi.advanceTimersByTimeAsync(DEFAULT_TIMEOUT_MS);
      await r;
    }
    expect(client.status().breaker).toBe("open");
    new FakeExtension(client, { "extension/getSelection": () => ({ selection: null }) }).connect();
    expect(client.status()).toMatchObject({ state: "connected", breaker: "closed" });
  });
});

describe("generations", () => {
  it("a newer socket takes over: the old one is closed, its pending requests fail at once, its late answers and pushes are ignored", async () => {
    const client = extensionClient();
    const old = new FakeExtension(client, { "extension/getSelection": never }).connect();
    const pending = reason(client.request("extension/getSelection", {}));
    const id = old.requests("extension/getSelection")[0]?.id;
    const fresh = new FakeExtension(client, { "extension/getSelection": () => ({ selection: null }) }).connect();
    expect(await pending).toBe("disconnected");
    expect(old.closes).toEqual([{ code: ExtensionClose.superseded, reason: expect.stringMatching(/another VS Code window/) }]);
    old.raw(JSON.stringify({ jsonrpc: "2.0", id, result: { selection: null } }));
    old.push("extension/lspReady", { languageId: "typescript" });
    old.disconnect(); // the old socket's close must not drop the new one
    expect(client.state.languagesReady.size).toBe(0);
    expect(client.connected).toBe(true);
    await expect(client.request("extension/getSelection", {})).resolves.toEqual({ selection: null });
    expect(fresh.requests("extension/getSelection")).toHaveLength(1);
  });

  it("a disconnect fails what is pending, rejects pending diffs and forgets the pushed state", async () => {
    const fake = new FakeExtension(extensionClient(), {
      "extension/getSelection": never,
      "extension/openDiff": () => ({ shown: true }),
    }).connect();
    fake.push("extension/diagnosticsChanged", { files: [{ uri: "file:///ws/a.ts", diagnostics: [diag("boom")] }] });
    const pending = reason(fake.client.request("extension/getSelection", {}));
    const diff = fake.client.openDiff(diffParams("t1"), { owner: "s1", signal: new AbortController().signal });
    await vi.advanceTimersByTimeAsync(0);
    fake.disconnect();
    expect(await pending).toBe("disconnected");
    await expect(diff).resolves.toEqual({ outcome: "rejected" });
    expect(fake.client.state.diagnosticsOf()).toEqual([]);
    expect(fake.client.status().state).toBe("disconnected");
  });
});

describe("push state", () => {
  it(`keeps diagnostics of at most ${MAX_DIAGNOSTIC_FILES} files (least recently updated dropped, and counted), drops files without any`, () => {
    const fake = new FakeExtension(extensionClient()).connect();
    const files = Array.from({ length: MAX_DIAGNOSTIC_FILES + 20 }, (_, i) => ({
      uri: `file:///ws/f${i}.ts`,
      diagnostics: [diag(`e${i}`)],
    }));
    fake.push("extension/diagnosticsChanged", { files });
    const kept = fake.client.state.diagnosticsOf();
    expect(kept).toHaveLength(MAX_DIAGNOSTIC_FILES);
    expect(kept[0]?.uri).toBe("file:///ws/f20.ts");
    expect(fake.client.state.droppedDiagnosticFiles).toBe(20);
    fake.push("extension/diagnosticsChanged", { files: [{ uri: "file:///ws/f20.ts", diagnostics: [] }] });
    expect(fake.client.state.diagnosticsOf("file:///ws/f20.ts")).toEqual([]);
  });

  it(`caps AI comments at ${MAX_AI_COMMENTS} and the active file's content at 32 KB; ignores pushes that do not match the schema`, () => {
    const fake = new FakeExtension(extensionClient()).connect();
    const comments = (n: number) => Array.from({ length: n }, (_, i) => ({ line: i, text: `AI: do ${i}` }));
    fake.push("extension/aiCommentsChanged", { filePath: "/ws/a.ts", fileUrl: "file:///ws/a.ts", comments: comments(150) });
    fake.push("extension/aiCommentsChanged", { filePath: "/ws/b.ts", fileUrl: "file:///ws/b.ts", comments: comments(150) });
    expect(fake.client.state.commentCount()).toBe(MAX_AI_COMMENTS);
    fake.push("extension/activeFileChanged", {
      filePath: "/ws/a.ts",
      fileUrl: "file:///ws/a.ts",
      content: "x".repeat(MAX_ACTIVE_FILE_CHARS + 5),
    });
    expect(fake.client.state.activeFile?.content).toHaveLength(MAX_ACTIVE_FILE_CHARS);
    expect(fake.client.state.activeFile?.contentTruncated).toBe(true);
    fake.raw(JSON.stringify({ jsonrpc: "2.0", method: "extension/selectionChanged", params: { text: 1 } }));
    fake.raw("not json");
    expect(fake.client.state.selection).toBeUndefined();
  });

  it("keeps the latest non-empty selection when the cursor moves on", () => {
    const fake = new FakeExtension(extensionClient()).connect();
    fake.push("extension/selectionChanged", selection("picked", false));
    fake.push("extension/selectionChanged", selection("", true));
    expect(fake.client.state.selection?.text).toBe("");
    expect(fake.client.state.latestSelection?.text).toBe("picked");
  });
});

describe("diffs", () => {
  it("waits for the user's answer; a new diff on the same tab rejects the old one; an abort rejects and closes the tab", async () => {
    const fake = new FakeExtension(extensionClient(), {
      "extension/openDiff": () => ({ shown: true }),
      "extension/closeDiffs": (p) => ({ closed: p.tabNames.length }),
    }).connect();
    const signal = new AbortController().signal;
    const first = fake.client.openDiff(diffParams("tab"), { owner: "s1", signal });
    await vi.advanceTimersByTimeAsync(0);
    const second = fake.client.openDiff(diffParams("tab"), { owner: "s1", signal });
    await expect(first).resolves.toEqual({ outcome: "rejected" });
    await vi.advanceTimersByTimeAsync(0);
    fake.push("extension/diffResolved", { tabName: "tab", outcome: "accepted", contents: "final text\n" });
    await expect(second).resolves.toEqual({ outcome: "accepted", contents: "final text\n" });
    const controller = new AbortController();
    const third = fake.client.openDiff(diffParams("other"), { owner: "s2", signal: controller.signal });
    await vi.advanceTimersByTimeAsync(0);
    controller.abort();
    await expect(third).resolves.toEqual({ outcome: "rejected" });
    await vi.advanceTimersByTimeAsync(0);
    expect(fake.requests("extension/closeDiffs").at(-1)?.params).toEqual({ tabNames: ["other"] });
  });

  it("closeDiffs closes only the bridge's pending diffs, all or one session's", async () => {
    const fake = new FakeExtension(extensionClient(), {
      "extension/openDiff": () => ({ shown: true }),
      "extension/closeDiffs": (p) => ({ closed: p.tabNames.length }),
    }).connect();
    const signal = new AbortController().signal;
    const a = fake.client.openDiff(diffParams("a"), { owner: "s1", signal });
    const b = fake.client.openDiff(diffParams("b"), { owner: "s2", signal });
    await vi.advanceTimersByTimeAsync(0);
    expect(await fake.client.closeDiffs("s1")).toBe(1);
    await expect(a).resolves.toEqual({ outcome: "rejected" });
    expect(await fake.client.closeDiffs()).toBe(1);
    await expect(b).resolves.toEqual({ outcome: "rejected" });
    expect(await fake.client.closeDiffs()).toBe(0);
  });
});

function diag(message: string) {
  return { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }, severity: "error" as const, message, source: "ts" };
}

function diffParams(tabName: string) {
  return { oldFilePath: "/ws/a.ts", newFilePath: "/ws/a.ts", newContents: "new\n", tabName };
}

function selection(text: string, isEmpty: boolean) {
  const at = { line: 1, character: 2 };
  return { text, filePath: "/ws/a.ts", fileUrl: "file:///ws/a.ts", selection: { start: at, end: at, isEmpty } };
}
