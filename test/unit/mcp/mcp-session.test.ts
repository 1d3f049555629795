import { describe, expect, it } from "vitest";
import { SUPPORTED_PROTOCOL_VERSIONS } from "../../../src/mcp/protocol/versions.ts";
import { errorOf, makeSession, resultOf } from "../../helpers/session-fixture.ts";

describe("JSON-RPC framing errors", () => {
  it("answers malformed JSON with -32700 and a null id", async () => {
    const { session } = makeSession();
    const response = await session.handleText("{not json");
    expect(response).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32700 } });
  });

  it("answers a bad message shape with -32600, keeping a usable id", async () => {
    const { session } = makeSession();
    const response = await session.handleText(JSON.stringify({ jsonrpc: "1.0", id: 7, method: "ping" }));
    expect(response).toMatchObject({ id: 7, error: { code: -32600 } });
    expect(await session.handleText(JSON.stringify({ jsonrpc: "2.0", id: 8, method: 42 }))).toMatchObject({
      id: 8,
      error: { code: -32600 },
    });
    expect(await session.handleText("42")).toMatchObject({ id: null, error: { code: -32600 } });
    expect(await session.handleText(JSON.stringify({ jsonrpc: "2.0", id: null, method: "ping" }))).toMatchObject({
      error: { code: -32600 },
    });
  });

  it("refuses batches with -32600 (removed in MCP 2025-06-18)", async () => {
    const { session } = makeSession();
    const response = await session.handleText(JSON.stringify([{ jsonrpc: "2.0", id: 1, method: "ping" }]));
    expect(response).toMatchObject({ id: null, error: { code: -32600, message: expect.stringContaining("batch") } });
  });

  it("keeps serving after bad input", async () => {
    const { session, call } = makeSession();
    await session.handleText("\u0000\u0001garbage");
    expect(resultOf(await call("ping"))).toEqual({});
  });
});

describe("lifecycle", () => {
  it("allows ping but refuses other requests before initialize", async () => {
    const { call } = makeSession();
    expect(resultOf(await call("ping"))).toEqual({});
    const refused = errorOf(await call("tools/list"));
    expect(refused.code).toBe(-32600);
    expect(refused.message).toMatch(/not initialized/);
  });

  it("answers unknown methods with -32601, before and after initialize", async () => {
    const { call, init } = makeSession();
    expect(errorOf(await call("sampling/createMessage")).code).toBe(-32601);
    await init();
    expect(errorOf(await call("elicitation/create")).code).toBe(-32601);
  });

  it.each(SUPPORTED_PROTOCOL_VERSIONS)("echoes the supported version %s", async (version) => {
    const { init } = makeSession();
    const result = resultOf(await init(version));
    expect(result.protocolVersion).toBe(version);
    expect(result.capabilities).toMatchObject({ tools: { listChanged: true }, logging: {} });
    expect(result.serverInfo).toMatchObject({ name: "claude-ide-bridge" });
  });

  it("offers the latest version for an unknown one", async () => {
    const { init } = makeSession();
    expect(resultOf(await init("1999-01-01")).protocolVersion).toBe("2025-11-25");
  });

  it("rejects initialize without a protocolVersion (-32602) and a second initialize (-32600)", async () => {
    const { call, init } = makeSession();
    expect(errorOf(await call("initialize", { capabilities: {} })).code).toBe(-32602);
    resultOf(await init());
    expect(errorOf(await init()).code).toBe(-32600);
  });

  it("accepts notifications/initialized and ide_connected without replying", async () => {
    const { notify, init, session } = makeSession();
    await init();
    await notify("notifications/initialized");
    await notify("ide_connected", { pid: 4242 });
    await notify("some/unknown/notification", {});
    expect(session.idePid).toBe(4242);
  });

  it("ignores responses from the client", async () => {
    const { session } = makeSession();
    expect(await session.handleText(JSON.stringify({ jsonrpc: "2.0", id: 1, result: {} }))).toBeUndefined();
  });

  it("serves empty resources and prompts lists", async () => {
    const { call, init } = makeSession();
    await init();
    expect(resultOf(await call("resources/list"))).toEqual({ resources: [] });
    expect(resultOf(await call("resources/templates/list"))).toEqual({ resourceTemplates: [] });
    expect(resultOf(await call("prompts/list"))).toEqual({ prompts: [] });
    expect(errorOf(await call("resources/read", { uri: "file:///x" })).code).toBe(-32002);
    expect(errorOf(await call("prompts/get", { name: "nope" })).code).toBe(-32602);
  });
});

describe("tools/list", () => {
  it("lists every tool with name, description and an object inputSchema", async () => {
    const { call, init } = makeSession();
    await init();
    const { tools, nextCursor } = resultOf(await call("tools/list")) as { tools: Record<string, unknown>[]; nextCursor?: string };
    expect(nextCursor).toBeUndefined();
    expect(tools.map((t) => t.name)).toContain("echo");
    for (const tool of tools) {
      expect(typeof tool.description).toBe("string");
      expect(tool.inputSchema).toMatchObject({ type: "object" });
    }
    // Output schemas are checked by the dispatcher, not listed (src/tools/platform/registry.ts).
    expect(tools.find((t) => t.name === "structured")?.outputSchema).toBeUndefined();
    expect(tools.find((t) => t.name === "echo")?.annotations).toEqual({ readOnlyHint: true });
  });

  it("gives every tool its search hint, and Claude Code's size hint to large-result tools only", async () => {
    const { call, init } = makeSession({ maxResultChars: 100_000 });
    await init();
    const { tools } = resultOf(await call("tools/list")) as { tools: Record<string, unknown>[] };
    expect(tools.find((t) => t.name === "big")?._meta).toEqual({
      "anthropic/searchHint": "large text",
      "anthropic/maxResultSizeChars": 100_000,
    });
    expect(tools.find((t) => t.name === "echo")?._meta).toEqual({ "anthropic/searchHint": "echo text" });
  });

  it("paginates with opaque cursors and rejects bad ones with -32602", async () => {
    const { call, init } = makeSession({ pageSize: 3 });
    await init();
    const names: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = resultOf(await call("tools/list", cursor ? { cursor } : {})) as { tools: { name: string }[]; nextCursor?: string };
      names.push(...page.tools.map((t) => t.name));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(3);
    expect(new Set(names).size).toBe(8);
    expect(errorOf(await call("tools/list", { cursor: "bm9wZQ" })).code).toBe(-32602);
    expect(errorOf(await call("tools/list", { cursor: 12 })).code).toBe(-32602);
  });

  it("sends notifications/tools/list_changed once initialized", async () => {
    const { session, sent, init } = makeSession();
    session.notifyToolsListChanged();
    expect(sent).toHaveLength(0);
    await init();
    session.notifyToolsListChanged();
    expect(sent).toEqual([{ jsonrpc: "2.0", method: "notifications/tools/list_changed" }]);
  });
});

describe("logging/setLevel", () => {
  it("accepts the spec's levels and rejects others with -32602", async () => {
    const { call, init } = makeSession();
    await init();
    expect(resultOf(await call("logging/setLevel", { level: "warning" }))).toEqual({});
    expect(errorOf(await call("logging/setLevel", { level: "loud" })).code).toBe(-32602);
  });
});
