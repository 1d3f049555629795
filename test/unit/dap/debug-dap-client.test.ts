// The DAP client in-process: framing split anywhere, requests answered, refused and timed out,
// events, a reverse request refused, the bridge's own refusals with their codes; the output log's
// paging; breakpoints found by a line's text.
import { describe, expect, it } from "vitest";
import { DapConnection, DapRequestError } from "../../../src/dap/dap-connection.ts";
import { MessageReader, encodeMessage } from "../../../src/dap/dap-framing.ts";
import { OutputLog } from "../../../src/dap/output-log.ts";
import { AdapterRefusal } from "../../../src/dap/adapter-refusal.ts";
import { InProcessEndpoint } from "../../../src/dap/in-process-endpoint.ts";
import { refusalAsToolError } from "../../../src/tools/debug/adapter-refusals.ts";
import { resolveLines } from "../../../src/tools/debug/breakpoint-specs.ts";
import { maskValue, MASKED } from "../../../src/tools/debug/stop-view.ts";

const decoder = new TextDecoder();

describe("DAP framing", () => {
  it("reads messages split across chunks and several in one chunk", () => {
    const bytes = new Uint8Array([...encodeMessage({ a: "é" }), ...encodeMessage({ b: 2 })]);
    const reader = new MessageReader();
    const got: unknown[] = [];
    for (let i = 0; i < bytes.length; i += 3) got.push(...reader.push(bytes.subarray(i, i + 3)));
    expect(got).toEqual([{ a: "é" }, { b: 2 }]);
  });

  it("refuses a header without Content-Length", () => {
    expect(() => new MessageReader().push(new TextEncoder().encode("X: 1\r\n\r\n{}"))).toThrow(/Content-Length/);
  });
});

/** An adapter stand-in on in-memory streams: `respond` answers each request the client sends. */
function pair(respond: (request: { seq: number; command: string }, send: (m: object) => void) => void) {
  const toClient = new TransformStream<Uint8Array, Uint8Array>();
  const toAdapter = new TransformStream<Uint8Array, Uint8Array>();
  const writer = toClient.writable.getWriter();
  const send = (m: object) => void writer.write(encodeMessage(m));
  void (async () => {
    const reader = toAdapter.readable.getReader();
    const messages = new MessageReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      for (const m of messages.push(value)) respond(m as { seq: number; command: string }, send);
    }
  })();
  const connection = new DapConnection({ readable: toClient.readable, writable: toAdapter.writable });
  return { connection, send, end: () => writer.close() };
}

describe("DapConnection", () => {
  it("answers, refuses with the adapter's message, and times out", async () => {
    const { connection } = pair((r, send) => {
      if (r.command === "ok") send({ type: "response", request_seq: r.seq, seq: 1, command: r.command, success: true, body: { x: 1 } });
      if (r.command === "bad")
        send({
          type: "response",
          request_seq: r.seq,
          seq: 1,
          command: r.command,
          success: false,
          body: { error: { id: 1, format: "no {what}", variables: { what: "frame" } } },
        });
    });
    expect((await connection.request("ok")).body).toEqual({ x: 1 });
    await expect(connection.request("bad")).rejects.toMatchObject({ message: "no frame", reason: "failed" });
    await expect(connection.request("silent", {}, { timeoutMs: 50 })).rejects.toMatchObject({ reason: "timeout" });
    await connection.close();
  });

  it("passes events on, refuses runInTerminal, and fails pending requests when the adapter goes away", async () => {
    const answers: unknown[] = [];
    const { connection, send, end } = pair((m) => answers.push(m));
    const events: string[] = [];
    connection.onEvent((e) => events.push(e.event));
    connection.onReverseRequest("runInTerminal", () => {
      throw new Error("refused");
    });
    const pending = connection.request("hang");
    send({ type: "event", seq: 1, event: "stopped", body: { reason: "breakpoint" } });
    send({ type: "request", seq: 2, command: "runInTerminal", arguments: {} });
    send({ type: "request", seq: 3, command: "startDebugging", arguments: {} });
    await end();
    await expect(pending).rejects.toBeInstanceOf(DapRequestError);
    await connection.closed;
    expect(events).toEqual(["stopped"]);
    await expect.poll(() => answers.filter((a) => (a as { type: string }).type === "response").length).toBe(2);
    expect(answers.slice(1)).toMatchObject([
      { type: "response", request_seq: 2, success: false, message: "refused" },
      { type: "response", request_seq: 3, success: false },
    ]);
  });
});

describe("OutputLog", () => {
  it("pages by entry index and filters streams", () => {
    const log = new OutputLog();
    for (let i = 0; i < 5; i++) log.append(i % 2 === 0 ? "stdout" : "stderr", `line ${i}\n`);
    const first = log.page(0, { maxChars: 14, categories: ["stdout"] });
    expect(first.entries.map((e) => e.text)).toEqual(["line 0\n", "line 2\n"]);
    expect(first.more).toBe(true);
    const rest = log.page(first.next, { maxChars: 100, categories: ["stdout"] });
    expect(rest.entries.map((e) => e.text)).toEqual(["line 4\n"]);
    expect(decoder.decode(new TextEncoder().encode(log.text(["stderr"])))).toBe("line 1\nline 3\n");
  });
});

describe("breakpoints and masking", () => {
  const text = "a = 1\nb = a + 1\nprint(b)\nb = a + 1\n";
  it("finds a line by its text, and says when the text is missing or ambiguous", () => {
    expect(resolveLines([{ text: "print(" }, { line: 2 }], { text, file: "x.py" })).toEqual([3, 2]);
    expect(resolveLines([{ text: "b = a + 1", line: 4 }], { text, file: "x.py" })).toEqual([4]);
    expect(() => resolveLines([{ text: "b = a + 1" }], { text, file: "x.py" })).toThrow(/2 lines/);
    expect(() => resolveLines([{ text: "zzz" }], { text, file: "x.py" })).toThrow(/No line/);
    expect(() => resolveLines([{ line: 99 }], { text, file: "x.py" })).toThrow(/line 99/);
  });

  it("masks values that look like secrets by name or by shape", () => {
    expect(maskValue("api_token", "'abc'")).toBe(MASKED);
    expect(maskValue("x", "'ghp_abcdefghijklmnopqrstuvwxyz0123456789'")).toBe(MASKED);
    expect(maskValue("count", "3")).toBe("3");
  });
});

describe("the bridge's own refusals over DAP", () => {
  it("reach the tools with their code and fix, not as an adapter failure", async () => {
    const endpoint = new InProcessEndpoint(
      async (command) => {
        throw new AdapterRefusal("command_refused", `No ${command} {here}`, { suggestion: "Do the other thing." });
      },
      () => {},
    );
    const connection = new DapConnection(endpoint.io);
    const failed = await connection.request("attach", {}).catch((err: unknown) => err);
    expect(failed).toBeInstanceOf(DapRequestError);
    expect((failed as DapRequestError).message).toBe("No attach {here}");
    const answer = refusalAsToolError(failed);
    expect(answer).toMatchObject({ code: "command_refused", message: "No attach {here}", suggestion: "Do the other thing." });
    expect(refusalAsToolError(new DapRequestError("plain", { command: "x", reason: "failed" }))).toBeUndefined();
    await connection.close();
  });
});
