import { describe, expect, it } from "vitest";
import { errorOf, makeSession, resultOf, slowToolWaiting, toolError } from "../../helpers/session-fixture.ts";
import { connectedExtension } from "../../helpers/fake-extension.ts";

async function ready(limits = {}) {
  const fixture = makeSession(limits);
  await fixture.init();
  await fixture.notify("notifications/initialized");
  return fixture;
}

describe("tools/call", () => {
  it("returns text content", async () => {
    const { call } = await ready();
    expect(resultOf(await call("tools/call", { name: "echo", arguments: { text: "hi" } }))).toEqual({
      content: [{ type: "text", text: "hi" }],
    });
  });

  it("answers an unknown tool with an isError result that points at the real names", async () => {
    const { call } = await ready();
    const body = toolError(resultOf(await call("tools/call", { name: "Echo2", arguments: {} })));
    expect(body).toMatchObject({ code: "unknown_tool", error: "Unknown tool: Echo2" });
    expect(body.suggestion).toMatch(/Did you mean echo\?/);
    expect(toolError(resultOf(await call("tools/call", { name: "zzz" }))).suggestion).toMatch(/^Call tools\/list/);
    expect(errorOf(await call("tools/call", { arguments: {} })).code).toBe(-32602);
  });

  it("turns argument validation failures into isError results naming the field", async () => {
    const { call } = await ready();
    const body = toolError(resultOf(await call("tools/call", { name: "echo", arguments: { text: 1 } })));
    expect(body.code).toBe("invalid_arguments");
    expect(body.error).toMatch(/text/);
    expect(body).toEqual({
      code: "invalid_arguments",
      error: "Invalid arguments for echo: `text` must be a string, got 1",
      suggestion: "Call echo again with the arguments fixed as said.",
    });
    const extra = toolError(resultOf(await call("tools/call", { name: "echo", arguments: { text: "a", extra: 1 } })));
    expect(extra.code).toBe("invalid_arguments");
    expect(toolError(resultOf(await call("tools/call", { name: "echo" }))).code).toBe("invalid_arguments");
  });

  it("turns a ToolError into plain text (what failed, then what to do) with its code in _meta, and counts it", async () => {
    const { call, session } = await ready();
    const result = resultOf(await call("tools/call", { name: "failing", arguments: { expected: true } }));
    expect(result).toEqual({
      content: [{ type: "text", text: "no such thing\ntry another" }],
      isError: true,
      _meta: { "claude-ide-bridge/error": { code: "file_not_found" } },
    });
    expect(toolError(result)).toEqual({ error: "no such thing", code: "file_not_found", suggestion: "try another" });
    expect(session.stats).toEqual({ callCount: 1, errorCount: 1 });
  });

  it("turns an unexpected exception into internal_error without a protocol error", async () => {
    const { call } = await ready();
    const body = toolError(resultOf(await call("tools/call", { name: "failing", arguments: { expected: false } })));
    expect(body.code).toBe("internal_error");
    expect(body.error).toMatch(/kaboom/);
  });

  it("returns structuredContent plus the same JSON as text for tools with an output schema", async () => {
    const { call } = await ready();
    const result = resultOf(await call("tools/call", { name: "structured", arguments: { a: 2, b: 3 } }));
    expect(result.structuredContent).toEqual({ sum: 5 });
    expect(result.content).toEqual([{ type: "text", text: JSON.stringify({ sum: 5 }) }]);
  });

  it("refuses to send output that breaks the tool's own schema", async () => {
    const { call } = await ready();
    const body = toolError(resultOf(await call("tools/call", { name: "structured", arguments: { a: 1, b: 1, lie: true } })));
    expect(body.code).toBe("internal_error");
    expect(body.error).toMatch(/outputSchema/);
  });

  it("truncates oversized text with a note", async () => {
    const { call } = await ready();
    const result = resultOf(await call("tools/call", { name: "big", arguments: { chars: 5000 } }));
    const text = (result.content as { text: string }[])[0]?.text ?? "";
    expect(text.startsWith("x".repeat(1000))).toBe(true);
    expect(text).toMatch(/truncated: 4000 of 5000 characters omitted/);
  });

  it("gates extension-only and probe-bound tools with a suggestion", async () => {
    const { call } = await ready();
    const ext = toolError(resultOf(await call("tools/call", { name: "needsExtension", arguments: {} })));
    expect(ext.code).toBe("extension_unavailable");
    expect(ext.suggestion).toBeTruthy();
    const probe = toolError(resultOf(await call("tools/call", { name: "needsProbe", arguments: {} })));
    expect(probe.code).toBe("probe_missing");
    expect(probe.error).toMatch(/no-such-command-xyz/);
  });

  it("applies the per-session tool rate limit as an isError result", async () => {
    const { call } = await ready({ toolCallsPerMinute: 1 });
    for (let i = 0; i < 3; i++) resultOf(await call("tools/call", { name: "echo", arguments: { text: String(i) } }));
    expect(toolError(resultOf(await call("tools/call", { name: "echo", arguments: { text: "3" } }))).code).toBe("tool_rate_limited");
  });

  it("announces every finished call on the event bus with how it ended, never its arguments", async () => {
    const fixture = await ready();
    const seen: unknown[] = [];
    fixture.events.subscribe("tool.called", (e) => seen.push(e));
    await fixture.call("tools/call", { name: "echo", arguments: { text: "secret text" } });
    await fixture.call("tools/call", { name: "failing", arguments: { expected: true } });
    expect(seen).toEqual([
      { tool: "echo", session: fixture.session.id, durationMs: 0, outcome: "ok", resultChars: expect.any(Number) },
      { tool: "failing", session: fixture.session.id, durationMs: 0, outcome: "file_not_found", resultChars: expect.any(Number) },
    ]);
    expect(JSON.stringify(seen)).not.toContain("secret text");
  });

  it("answers extension-only tools through the extension when it is connected", async () => {
    const { call, init } = makeSession({}, { extension: connectedExtension().client });
    await init();
    expect(resultOf(await call("tools/call", { name: "needsExtension", arguments: {} }))).toEqual({
      content: [{ type: "text", text: "ran through the extension" }],
      _meta: { "claude-ide-bridge/backend": "extension" },
    });
    expect(resultOf(await call("tools/call", { name: "withFallback", arguments: {} }))).toEqual({
      content: [{ type: "text", text: "extension" }],
      _meta: { "claude-ide-bridge/backend": "extension" },
    });
  });
});

describe("progress, logging, cancellation, timeout", () => {
  it("sends increasing notifications/progress for a progressToken and honours notifications/cancelled", async () => {
    const { call, notify, sent } = await ready();
    await call("logging/setLevel", { level: "info" });
    const waiting = slowToolWaiting();
    const pending = call("tools/call", { name: "slow", arguments: { steps: 2 }, _meta: { progressToken: "tok" } }, "call-1");
    await waiting;
    await notify("notifications/cancelled", { requestId: "call-1", reason: "user" });
    const body = toolError(resultOf(await pending));
    expect(body.code).toBe("cancelled");
    const progress = sent.filter((m) => "method" in m && m.method === "notifications/progress");
    expect(progress.map((m) => ("params" in m ? m.params : undefined))).toEqual([
      { progressToken: "tok", progress: 1, total: 2, message: "step 1" },
      { progressToken: "tok", progress: 2, total: 2, message: "step 2" },
    ]);
    const logs = sent.filter((m) => "method" in m && m.method === "notifications/message");
    expect(logs).toHaveLength(1); // "debug" is below the "info" threshold
    expect(logs[0]).toMatchObject({ params: { level: "info", logger: "slow", data: { message: "working" } } });
  });

  it("sends no progress without a token and no logs without setLevel", async () => {
    const { call, notify, sent } = await ready();
    const waiting = slowToolWaiting();
    const pending = call("tools/call", { name: "slow", arguments: {} }, 99);
    await waiting;
    await notify("notifications/cancelled", { requestId: 99 });
    await pending;
    expect(sent).toHaveLength(0);
  });

  it("routes notifications of a request to its related sink", async () => {
    const { session, sent } = await ready();
    const related: unknown[] = [];
    const waiting = slowToolWaiting();
    const pending = session.handleText(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 5,
        method: "tools/call",
        params: { name: "slow", arguments: { steps: 1 }, _meta: { progressToken: 1 } },
      }),
      { send: (m) => related.push(m) },
    );
    await waiting;
    session.close();
    await pending;
    expect(related).toHaveLength(1);
    expect(sent).toHaveLength(0);
  });

  it("times out a handler that outlives --timeout", async () => {
    const { call } = await ready({ timeoutMs: 50 });
    const body = toolError(resultOf(await call("tools/call", { name: "slow", arguments: {} })));
    expect(body.code).toBe("timeout");
    expect(body.suggestion).toMatch(/--timeout/);
  });

  it("aborts in-flight calls when the session closes", async () => {
    const { call, session } = await ready();
    const waiting = slowToolWaiting();
    const pending = call("tools/call", { name: "slow", arguments: {} });
    await waiting;
    expect(session.inFlight).toBe(1);
    session.close();
    expect(toolError(resultOf(await pending)).code).toBe("cancelled");
    expect(session.inFlight).toBe(0);
    expect(errorOf(await call("ping")).code).toBe(-32000);
  });
});
