// An McpSession over a small registry of purpose-built tools, for engine unit tests.
import * as v from "valibot";
import type { JsonRpcMessage, JsonRpcResponse } from "../../src/mcp/jsonrpc.ts";
import { McpSession, type SessionLimits } from "../../src/mcp/session.ts";
import { silentLogger } from "../../src/log.ts";
import { ToolError } from "../../src/errors.ts";
import type { ToolContext } from "../../src/tools/context.ts";
import { defineTool, type Tool } from "../../src/tools/define-tool.ts";
import { ToolRegistry } from "../../src/tools/registry.ts";

export const echoTool = defineTool({
  name: "echo",
  description: "Returns its text.",
  input: v.strictObject({ text: v.string() }),
  annotations: { readOnlyHint: true },
  async handler(input) {
    return input.text;
  },
});

export const structuredTool = defineTool({
  name: "structured",
  description: "Returns a structured sum.",
  input: v.strictObject({ a: v.number(), b: v.number(), lie: v.optional(v.boolean()) }),
  output: v.object({ sum: v.number() }),
  async handler(input) {
    // `lie` makes the tool break its own output schema, to test the guard.
    return (input.lie ? { sum: "not a number" } : { sum: input.a + input.b }) as { sum: number };
  },
});

export const failingTool = defineTool({
  name: "failing",
  description: "Fails as told.",
  input: v.strictObject({ expected: v.boolean() }),
  async handler(input) {
    if (input.expected) throw new ToolError("file_not_found", "no such thing", { suggestion: "try another" });
    throw new Error("kaboom");
  },
});

/** Waits until aborted, reporting progress and logs first. */
export const slowTool = defineTool({
  name: "slow",
  description: "Reports progress, logs, then waits for its signal.",
  input: v.strictObject({ steps: v.optional(v.number(), 3) }),
  async handler(input, ctx) {
    for (let i = 1; i <= input.steps; i++) ctx.progress(i, { total: input.steps, message: `step ${i}` });
    ctx.progress(1); // not increasing: must be dropped
    ctx.log("info", "working", { steps: input.steps });
    ctx.log("debug", "noise");
    await new Promise<void>((resolve) => ctx.signal.addEventListener("abort", () => resolve(), { once: true }));
    return "stopped";
  },
});

export const bigTool = defineTool({
  name: "big",
  description: "Returns a large text.",
  input: v.strictObject({ chars: v.number() }),
  largeResult: true,
  async handler(input) {
    return "x".repeat(input.chars);
  },
});

export const needsExtension = defineTool({
  name: "needsExtension",
  description: "Needs the VS Code extension.",
  input: v.strictObject({}),
  requires: { extension: "required" },
  async handler() {
    return "ran";
  },
});

export const needsProbe = defineTool({
  name: "needsProbe",
  description: "Needs a command that does not exist.",
  input: v.strictObject({}),
  requires: { probe: "no-such-command-xyz" },
  async handler() {
    return "ran";
  },
});

export const ALL_TEST_TOOLS: Tool[] = [echoTool, structuredTool, failingTool, slowTool, bigTool, needsExtension, needsProbe];

export interface Fixture {
  session: McpSession;
  sent: JsonRpcMessage[];
  clock: { now: number };
  call(method: string, params?: Record<string, unknown>, id?: number | string): Promise<JsonRpcResponse>;
  notify(method: string, params?: Record<string, unknown>): Promise<void>;
  init(version?: string): Promise<JsonRpcResponse>;
}

export function makeSession(limits: Partial<SessionLimits> = {}, tools: Tool[] = ALL_TEST_TOOLS): Fixture {
  const clock = { now: 1_000_000 };
  const registry = new ToolRegistry(tools, { slim: false, maxResultChars: 1000 });
  const session = new McpSession({
    registry,
    logger: silentLogger,
    now: () => clock.now,
    limits: { requestsPerMinute: 200, toolCallsPerMinute: 60, timeoutMs: 5000, maxResultChars: 1000, pageSize: 200, ...limits },
    makeToolContext: (base) =>
      ({
        ...base,
        extension: { connected: false },
        probes: { get: async () => ({ available: false }) },
      }) as unknown as ToolContext,
  });
  const sent: JsonRpcMessage[] = [];
  session.attach({ send: (m) => sent.push(m) });
  let nextId = 1;
  const call = async (method: string, params?: Record<string, unknown>, id: number | string = nextId++) => {
    const message = params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params };
    const response = await session.handleText(JSON.stringify(message));
    if (!response) throw new Error(`no response to ${method}`);
    return response;
  };
  const notify = async (method: string, params?: Record<string, unknown>) => {
    const response = await session.handleText(JSON.stringify({ jsonrpc: "2.0", method, params }));
    if (response) throw new Error(`notification ${method} got a response`);
  };
  const init = (version = "2025-11-25") =>
    call("initialize", { protocolVersion: version, capabilities: {}, clientInfo: { name: "test", version: "1" } });
  return { session, sent, clock, call, notify, init };
}

export function resultOf(response: JsonRpcResponse): Record<string, unknown> {
  if ("error" in response) throw new Error(`expected a result, got error ${response.error.code}: ${response.error.message}`);
  return response.result;
}

export function errorOf(response: JsonRpcResponse): { code: number; message: string; data?: unknown } {
  if (!("error" in response)) throw new Error(`expected an error, got ${JSON.stringify(response.result)}`);
  return response.error;
}

/** The {error, code, suggestion} body of an isError tool result. */
export function toolError(result: Record<string, unknown>): { error: string; code: string; suggestion?: string } {
  if (result.isError !== true) throw new Error(`expected isError, got ${JSON.stringify(result)}`);
  const content = result.content as { type: string; text: string }[];
  return JSON.parse(content[0]?.text ?? "{}");
}
