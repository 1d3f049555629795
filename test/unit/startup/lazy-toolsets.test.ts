// Tools listed from the manifest, loaded per toolset on first call: a call made before its toolset is
// loaded waits for it and is answered as the live tool answers (arguments, structured output, the
// VS Code route and the backend it names); a toolset whose modules fail to load answers isError and
// is tried again; the registries then hold the live tools.
import { describe, expect, it } from "vitest";
import { silentLogger } from "../../../src/log.ts";
import { credentialBudget } from "../../../src/mcp/limits/rate-budget.ts";
import { ToolsetGatedSession } from "../../../src/startup/gated-session.ts";
import { lazyToolsets } from "../../../src/startup/lazy-toolsets.ts";
import { manifestOf } from "../../../src/startup/tool-manifest.ts";
import { toolContext } from "../../../src/tools/platform/tool-environment.ts";
import { ToolRegistry } from "../../../src/tools/platform/registry.ts";
import type { Toolset } from "../../../src/tools/platform/toolset.ts";
import { connectedExtension } from "../../helpers/fake-extension.ts";
import { resultOf, TEST_TOOLSETS, testEnvironment, testEventBus } from "../../helpers/session-fixture.ts";

const TEST = TEST_TOOLSETS[0] as Toolset;
const IDE: Toolset = { name: "ide", purpose: "the IDE link's tools", tools: TEST.tools.filter((t) => t.name === "echo") };
const limits = { requestsPerMinute: 600, toolCallsPerMinute: 600, timeoutMs: 5000, maxResultChars: 1000, pageSize: 200 };

/** A session over tools listed from their manifest, whose one toolset loads when `release` is called (or fails as told). */
function lazySession(opts: { fail?: () => boolean; extension?: boolean } = {}) {
  let loads = 0;
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const load = async (toolset: Toolset) => {
    loads += 1;
    await released;
    if (opts.fail?.()) throw new Error("Cannot find module 'chunk-x.js'");
    return toolset;
  };
  const lazy = lazyToolsets(manifestOf([TEST, IDE]), { loaders: { test: () => load(TEST), ide: () => load(IDE) }, log: silentLogger });
  const registry = new ToolRegistry(lazy.toolsets, { slim: false, maxResultChars: 1000 });
  lazy.attach(registry);
  const events = testEventBus();
  const env = testEnvironment(registry, { events, ...(opts.extension && { extension: connectedExtension().client }) });
  const session = new ToolsetGatedSession(
    {
      registry,
      logger: silentLogger,
      limits,
      credential: credentialBudget(limits),
      events,
      makeToolContext: (call) => toolContext(env, call),
    },
    lazy,
  );
  let id = 0;
  const call = (method: string, params?: Record<string, unknown>) =>
    session.handleText(JSON.stringify({ jsonrpc: "2.0", id: ++id, method, ...(params && { params }) }));
  const tool = (name: string, args: Record<string, unknown>) => call("tools/call", { name, arguments: args });
  const notify = (method: string, params: Record<string, unknown>) =>
    session.handleText(JSON.stringify({ jsonrpc: "2.0", method, params }));
  return { lazy, registry, call, notify, tool, release, loads: () => loads };
}

async function initialized(fixture: ReturnType<typeof lazySession>) {
  await fixture.call("initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } });
}

describe("lazy toolsets", () => {
  it("lists every tool before any toolset loads, and loads none for it", async () => {
    const f = lazySession();
    await initialized(f);
    const listed = resultOf((await f.call("tools/list")) ?? { jsonrpc: "2.0", id: 0, error: { code: 0, message: "none" } });
    expect((listed.tools as { name: string }[]).map((t) => t.name)).toEqual(TEST.tools.map((t) => t.name));
    expect(f.loads()).toBe(0);
    expect(f.lazy.status()).toEqual({ loaded: [], total: 2 });
  });

  it("holds calls until their toolset loads, answers each as the live tool, then serves the live tools", async () => {
    const f = lazySession({ extension: true });
    await initialized(f);
    const early = [f.tool("structured", { a: 1, b: 2 }), f.tool("echo", { txt: "x" }), f.tool("withFallback", {})];
    f.release();
    const [structured, badArgs, routed] = await Promise.all(early);
    expect(f.loads()).toBe(1);
    expect(resultOf(structured as never)).toEqual({ content: [{ type: "text", text: '{"sum":3}' }], structuredContent: { sum: 3 } });
    expect(JSON.stringify(resultOf(badArgs as never))).toContain("unknown argument `txt` (did you mean `text`?)");
    // The VS Code route and the backend it names, as for a live tool.
    expect(resultOf(routed as never)).toEqual({
      content: [{ type: "text", text: "extension" }],
      _meta: { "claude-ide-bridge/backend": "extension" },
    });
    for (const tool of TEST.tools) expect(f.registry.get(tool.name)).toBe(tool);
    expect(f.lazy.status().loaded).toEqual(["test"]);
  });

  it("answers a call as the live tool when it reaches a stand-in directly (a prompt running a tool)", async () => {
    const f = lazySession();
    const stub = f.registry.get("structured");
    f.release();
    const ctx = { signal: new AbortController().signal } as never;
    expect(await stub?.handlers.headless?.({ a: 2, b: 3 }, ctx)).toEqual({ sum: 5 });
    await expect(stub?.handlers.headless?.({ a: "2" }, ctx)).rejects.toMatchObject({ code: "invalid_arguments" });
  });

  it("answers isError when a toolset's modules fail to load, keeps serving, and loads it on a later call", async () => {
    let failing = true;
    const f = lazySession({ fail: () => failing });
    await initialized(f);
    f.release();
    const failed = resultOf((await f.tool("echo", { text: "hi" })) as never);
    expect(failed.isError).toBe(true);
    expect(JSON.stringify(failed)).toContain("could not load its test tools (Cannot find module 'chunk-x.js')");
    expect(failed._meta).toEqual({ "claude-ide-bridge/error": { code: "toolset_not_loaded" } });
    expect(resultOf((await f.call("ping")) as never)).toEqual({});
    failing = false;
    expect(resultOf((await f.tool("echo", { text: "hi" })) as never)).toEqual({ content: [{ type: "text", text: "hi" }] });
    expect(f.loads()).toBe(2);
  });

  it("ends a call cancelled while it waits for its toolset without an answer", async () => {
    const f = lazySession();
    await initialized(f);
    const waiting = f.tool("echo", { text: "late" });
    await f.notify("notifications/cancelled", { requestId: 2 });
    f.release();
    expect(await waiting).toBeUndefined();
  });
});
