// The modern era (MCP 2026-07-28) on a session, in process: the `_meta` envelope, server/discover,
// resultType and caching hints, removed methods, -32022, subscriptions/listen on a socket, MCP
// Tasks with progress and cancellation, and a legacy session answering both eras at once.
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { SubscriptionHub } from "../../../src/mcp/subscriptions/subscription-hub.ts";
import { TaskStore } from "../../../src/mcp/tasks/task-store.ts";
import { defineTool } from "../../../src/tools/platform/define-tool.ts";
import { defineToolset } from "../../../src/tools/platform/toolset.ts";
import { ALL_TEST_TOOLS, errorOf, makeSession, resultOf, slowToolWaiting } from "../../helpers/session-fixture.ts";

const MODERN = "2026-07-28";
const TASKS = "io.modelcontextprotocol/tasks";

function meta(extra: Record<string, unknown> = {}, capabilities: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientCapabilities": capabilities,
    ...extra,
  };
}

/** Waits for its signal like the slow tool, under a name the task policy runs as a task. */
const longTool = defineTool({
  name: "runCommand",
  description: "Stands in for a long command: reports progress, then waits for its signal or a release.",
  searchHint: "long command",
  input: v.strictObject({ finish: v.optional(v.boolean()) }),
  annotations: { readOnlyHint: true },
  async handler(input, ctx) {
    ctx.progress(1, { total: 2, message: "halfway" });
    if (input.finish) return "finished";
    await new Promise<void>((resolve) => ctx.signal.addEventListener("abort", () => resolve(), { once: true }));
    return "stopped";
  },
});

const toolsets = [defineToolset({ name: "test", purpose: "engine tests", tools: [...ALL_TEST_TOOLS, longTool] })];

describe("modern requests on a session", () => {
  it("answers server/discover without initialize, with versions, capabilities, identity and caching hints", async () => {
    const { call } = makeSession();
    const result = resultOf(await call("server/discover", { _meta: meta() }));
    expect(result).toMatchObject({
      resultType: "complete",
      supportedVersions: [MODERN],
      capabilities: { tools: { listChanged: true }, extensions: { [TASKS]: {} } },
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "claude-ide-bridge" } },
      cacheScope: "private",
    });
    expect(result.ttlMs).toBeTypeOf("number");
  });

  it("refuses a missing or incomplete envelope with -32602 naming what is missing", async () => {
    const { call } = makeSession();
    expect(errorOf(await call("server/discover", {})).code).toBe(-32602);
    // Without the envelope (and no HTTP header to say otherwise) a request is legacy: initialize first.
    expect(errorOf(await call("tools/list", {})).code).toBe(-32600);
    const noCaps = errorOf(await call("server/discover", { _meta: { "io.modelcontextprotocol/protocolVersion": MODERN } }));
    expect(noCaps.code).toBe(-32602);
    expect(noCaps.message).toContain("clientCapabilities");
  });

  it("answers an unsupported version with -32022 listing the supported ones and echoing the request", async () => {
    const { call } = makeSession();
    const error = errorOf(await call("tools/list", { _meta: meta({ "io.modelcontextprotocol/protocolVersion": "2099-01-01" }) }));
    expect(error).toMatchObject({ code: -32022, data: { supported: [MODERN], requested: "2099-01-01" } });
  });

  it("answers methods the revision removed with -32601, while the legacy ones still work after initialize", async () => {
    const { call, init } = makeSession();
    expect(errorOf(await call("ping", { _meta: meta() })).code).toBe(-32601);
    expect(errorOf(await call("initialize", { _meta: meta() })).code).toBe(-32601);
    await init();
    expect(resultOf(await call("ping"))).toEqual({});
  });

  it("gives modern results resultType and list hints, legacy results neither, on one session", async () => {
    const { call, init } = makeSession();
    await init();
    const legacy = resultOf(await call("tools/list"));
    const modern = resultOf(await call("tools/list", { _meta: meta() }));
    expect(legacy).not.toHaveProperty("resultType");
    expect(legacy).not.toHaveProperty("ttlMs");
    expect(modern).toMatchObject({ resultType: "complete", cacheScope: "private" });
    expect(modern.tools).toEqual(legacy.tools);
  });

  it("maps resource not found to -32602 with the uri (it is -32002 in the legacy era)", async () => {
    const { call, init } = makeSession();
    expect(errorOf(await call("resources/read", { uri: "file:///nope", _meta: meta() }))).toMatchObject({
      code: -32602,
      data: { uri: "file:///nope" },
    });
    await init();
    expect(errorOf(await call("resources/read", { uri: "file:///nope" })).code).toBe(-32002);
  });

  it("sends notifications/message only when the request set a log level, on the request's stream", async () => {
    const { session, sent } = makeSession();
    const quiet = session.handleText(
      JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "slow", arguments: {}, _meta: meta() } }),
    );
    await slowToolWaiting();
    session.close("test over");
    await quiet;
    expect(sent.filter((m) => "method" in m && m.method === "notifications/message")).toEqual([]);
    const { session: loud, sent: loudSent } = makeSession();
    const call = loud.handleText(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "slow", arguments: {}, _meta: meta({ "io.modelcontextprotocol/logLevel": "info", progressToken: "p" }) },
      }),
    );
    await slowToolWaiting();
    // notifications/cancelled names the modern call by its id, as on stdio.
    await loud.handleText(JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } }));
    const response = await call;
    expect(JSON.stringify(response)).toContain("cancelled");
    const methods = loudSent.map((m) => ("method" in m ? m.method : ""));
    expect(methods).toContain("notifications/message");
    expect(methods).toContain("notifications/progress");
  });

  it("subscriptions/listen: acknowledges first, forwards only what was asked, tagged with its id, until cancelled", async () => {
    const hub = new SubscriptionHub();
    const { session, sent } = makeSession({}, { hub });
    const listen = session.handleText(
      JSON.stringify({
        jsonrpc: "2.0",
        id: "sub-1",
        method: "subscriptions/listen",
        params: { notifications: { toolsListChanged: true, promptsListChanged: true }, _meta: meta() },
      }),
    );
    hub.publish({ kind: "promptsListChanged" });
    hub.publish({ kind: "toolsListChanged" });
    const [ack, ...rest] = sent;
    expect(ack).toMatchObject({
      method: "notifications/subscriptions/acknowledged",
      params: { _meta: { "io.modelcontextprotocol/subscriptionId": "sub-1" }, notifications: { toolsListChanged: true } },
    });
    expect(ack && "params" in ack ? ack.params?.notifications : undefined).not.toHaveProperty("promptsListChanged");
    expect(rest).toEqual([
      {
        jsonrpc: "2.0",
        method: "notifications/tools/list_changed",
        params: { _meta: { "io.modelcontextprotocol/subscriptionId": "sub-1" } },
      },
    ]);
    await session.handleText(JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "sub-1" } }));
    expect(await listen).toBeUndefined();
    expect(hub.size).toBe(0);
  });

  it("ends a listen stream gracefully with its result when the server stops it", async () => {
    const hub = new SubscriptionHub();
    const { session } = makeSession({}, { hub });
    const listen = session.handleText(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 7,
        method: "subscriptions/listen",
        params: { notifications: { toolsListChanged: true }, _meta: meta() },
      }),
    );
    session.endSubscriptions();
    expect(await listen).toMatchObject({
      id: 7,
      result: { resultType: "complete", _meta: { "io.modelcontextprotocol/subscriptionId": 7 } },
    });
  });
});

describe("MCP Tasks", () => {
  it("runs a long tool as a task with progress as its status, and answers tasks/get with the result once done", async () => {
    const tasks = new TaskStore();
    const { call } = makeSession({}, { toolsets, tasks });
    const created = resultOf(
      await call("tools/call", { name: "runCommand", arguments: { finish: true }, _meta: meta({}, { extensions: { [TASKS]: {} } }) }),
    );
    expect(created).toMatchObject({ resultType: "task", status: "working", pollIntervalMs: 1000 });
    const taskId = String(created.taskId);
    let task = resultOf(await call("tasks/get", { taskId, _meta: meta({}, { extensions: { [TASKS]: {} } }) }));
    while (task.status === "working") {
      await new Promise((resolve) => setTimeout(resolve, 10));
      task = resultOf(await call("tasks/get", { taskId, _meta: meta({}, { extensions: { [TASKS]: {} } }) }));
    }
    expect(task).toMatchObject({
      status: "completed",
      statusMessage: "1/2: halfway",
      result: { resultType: "complete", content: [{ type: "text", text: "finished" }] },
    });
  });

  it("cancels a running task; an unknown task id is -32602; without the extension the call is plain", async () => {
    const tasks = new TaskStore();
    const { call } = makeSession({}, { toolsets, tasks });
    const caps = { extensions: { [TASKS]: {} } };
    const created = resultOf(await call("tools/call", { name: "runCommand", arguments: {}, _meta: meta({}, caps) }));
    const taskId = String(created.taskId);
    expect(resultOf(await call("tasks/cancel", { taskId, _meta: meta({}, caps) }))).toMatchObject({ resultType: "complete" });
    expect(resultOf(await call("tasks/get", { taskId, _meta: meta({}, caps) })).status).toBe("cancelled");
    expect(errorOf(await call("tasks/get", { taskId: "nope", _meta: meta({}, caps) })).code).toBe(-32602);
    const plain = resultOf(await call("tools/call", { name: "runCommand", arguments: { finish: true }, _meta: meta() }));
    expect(plain).toMatchObject({ resultType: "complete", content: [{ type: "text", text: "finished" }] });
    expect(tasks.size).toBe(1);
  });

  it("keeps quick tools synchronous even when the client supports tasks", async () => {
    const { call } = makeSession({}, { toolsets });
    const result = resultOf(
      await call("tools/call", { name: "echo", arguments: { text: "hi" }, _meta: meta({}, { extensions: { [TASKS]: {} } }) }),
    );
    expect(result).toMatchObject({ resultType: "complete", content: [{ type: "text", text: "hi" }] });
  });

  it("drops every task at dispose, aborting the running ones", async () => {
    const tasks = new TaskStore();
    const { call } = makeSession({}, { toolsets, tasks });
    await call("tools/call", { name: "runCommand", arguments: {}, _meta: meta({}, { extensions: { [TASKS]: {} } }) });
    expect(tasks.running).toBe(1);
    tasks.dispose();
    expect(tasks.size).toBe(0);
  });
});
