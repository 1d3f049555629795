// An McpSession over a small registry of purpose-built tools, for engine unit tests.
import * as v from "valibot";
import type { JsonRpcMessage, JsonRpcResponse } from "../../src/mcp/protocol/jsonrpc.ts";
import { McpSession, type SessionLimits } from "../../src/mcp/sessions/session.ts";
import type { SubscriptionHub } from "../../src/mcp/subscriptions/subscription-hub.ts";
import type { TaskStore } from "../../src/mcp/tasks/task-store.ts";
import { silentLogger } from "../../src/log.ts";
import { ToolError } from "../../src/errors.ts";
import { realpath } from "node:fs/promises";
import { tmpdir } from "node:os";
import { createNodeFs } from "../../runtime/shared/fs.ts";
import { createNodeRuntime } from "../../runtime/node.ts";
import { credentialBudget, type Budget } from "../../src/mcp/limits/rate-budget.ts";
import { createWorkspace } from "../../src/security/jail/workspace-jail.ts";
import { createEventBus, type EventBus } from "../../src/capabilities/events/event-bus.ts";
import type { ExtensionLink } from "../../src/capabilities/context.ts";
import { defineTool, type Tool } from "../../src/tools/platform/define-tool.ts";
import { ToolRegistry } from "../../src/tools/platform/registry.ts";
import { createToolEnvironment, toolContext, type ToolHost } from "../../src/tools/platform/tool-environment.ts";
import { defineToolset, type Toolset } from "../../src/tools/platform/toolset.ts";

export const echoTool = defineTool({
  name: "echo",
  description: "Returns its text.",
  searchHint: "echo text",
  input: v.strictObject({ text: v.string() }),
  annotations: { readOnlyHint: true },
  async handler(input) {
    return input.text;
  },
});

export const structuredTool = defineTool({
  name: "structured",
  description: "Returns a structured sum.",
  searchHint: "sum numbers",
  input: v.strictObject({ a: v.number(), b: v.number(), lie: v.optional(v.boolean()) }),
  annotations: { readOnlyHint: true },
  output: v.object({ sum: v.number() }),
  async handler(input) {
    // `lie` makes the tool break its own output schema, to test the guard.
    return (input.lie ? { sum: "not a number" } : { sum: input.a + input.b }) as { sum: number };
  },
});

export const failingTool = defineTool({
  name: "failing",
  description: "Fails as told.",
  searchHint: "fail error",
  input: v.strictObject({ expected: v.boolean() }),
  annotations: { readOnlyHint: true },
  async handler(input) {
    if (input.expected) throw new ToolError("file_not_found", "no such thing", { suggestion: "try another" });
    throw new Error("kaboom");
  },
});

/** Dispatches "waiting" each time the slow tool has reported and starts waiting for its signal. */
export const slowToolEvents = new EventTarget();

/** Resolves when the next slow tool call is waiting (tests wait for this, not for a timer). */
export function slowToolWaiting(): Promise<void> {
  return new Promise((resolve) => slowToolEvents.addEventListener("waiting", () => resolve(), { once: true }));
}

/** Waits until aborted, reporting progress and logs first. */
export const slowTool = defineTool({
  name: "slow",
  description: "Reports progress, logs, then waits for its signal.",
  searchHint: "slow progress wait",
  input: v.strictObject({ steps: v.optional(v.number(), 3) }),
  annotations: { readOnlyHint: true },
  async handler(input, ctx) {
    for (let i = 1; i <= input.steps; i++) ctx.progress(i, { total: input.steps, message: `step ${i}` });
    ctx.progress(1); // not increasing: must be dropped
    ctx.log("info", "working", { steps: input.steps });
    ctx.log("debug", "noise");
    const aborted = new Promise<void>((resolve) => ctx.signal.addEventListener("abort", () => resolve(), { once: true }));
    slowToolEvents.dispatchEvent(new Event("waiting"));
    await aborted;
    return "stopped";
  },
});

export const bigTool = defineTool({
  name: "big",
  description: "Returns a large text.",
  searchHint: "large text",
  input: v.strictObject({ chars: v.number() }),
  annotations: { readOnlyHint: true },
  largeResult: true,
  async handler(input) {
    return "x".repeat(input.chars);
  },
});

export const needsExtension = defineTool({
  name: "needsExtension",
  description: "Needs the VS Code extension.",
  searchHint: "extension only",
  input: v.strictObject({}),
  annotations: { readOnlyHint: true },
  async viaExtension() {
    return "ran through the extension";
  },
});

export const needsProbe = defineTool({
  name: "needsProbe",
  description: "Needs a command that does not exist.",
  searchHint: "needs a missing command",
  input: v.strictObject({}),
  annotations: { readOnlyHint: true },
  requires: { probes: ["no-such-command-xyz"] },
  async handler() {
    return "ran";
  },
});

/** Answered headless, or through the extension when it is connected. */
export const withFallback = defineTool({
  name: "withFallback",
  description: "Says which handler answered.",
  searchHint: "fallback routing",
  input: v.strictObject({}),
  annotations: { readOnlyHint: true },
  async handler() {
    return "headless";
  },
  async viaExtension() {
    return "extension";
  },
});

export const ALL_TEST_TOOLS: Tool[] = [echoTool, structuredTool, failingTool, slowTool, bigTool, needsExtension, needsProbe, withFallback];

export const TEST_TOOLSETS: Toolset[] = [defineToolset({ name: "test", purpose: "tools for engine tests", tools: ALL_TEST_TOOLS })];

/** The tools touch no files; the jail is rooted in the temp dir. */
const workspace = await createWorkspace(createNodeFs(), { root: await realpath(tmpdir()) });

export interface EnvironmentOptions {
  extension?: ExtensionLink;
  maxResultChars?: number;
}

/** An event bus whose listener failures fail loudly (a test's listener threw). */
export function testEventBus(): EventBus {
  return createEventBus((name, err) => {
    throw new Error(`a listener of ${name} failed: ${String(err)}`);
  });
}

/** The bridge's own tool environment (src/tools/platform/tool-environment.ts) over `registry`. */
export function testEnvironment(registry: ToolRegistry, opts: EnvironmentOptions & { events?: EventBus } = {}): ToolHost {
  return createToolEnvironment(createNodeRuntime(), {
    workspace,
    settings: { maxResultChars: opts.maxResultChars ?? 1000, timeoutMs: 5000, slim: false },
    catalog: registry,
    events: opts.events ?? testEventBus(),
    ...(opts.extension === undefined ? {} : { extension: opts.extension }),
  });
}

export interface Fixture {
  session: McpSession;
  events: EventBus;
  sent: JsonRpcMessage[];
  clock: { now: number };
  call(method: string, params?: Record<string, unknown>, id?: number | string): Promise<JsonRpcResponse>;
  notify(method: string, params?: Record<string, unknown>): Promise<void>;
  init(version?: string): Promise<JsonRpcResponse>;
}

export interface SessionFixtureOptions extends EnvironmentOptions {
  toolsets?: readonly Toolset[];
  /** The tools' environment (default: the bridge's factory over the temp dir); gets the registry. */
  env?: (registry: ToolRegistry, events: EventBus) => ToolHost;
  /** Where the session announces finished calls (default: a bus of its own, in `events`). */
  events?: EventBus;
  /** The credential budget shared with other sessions (default: a fresh one per session). */
  credential?: Budget;
  /** The list-change hub and the task store (MCP 2026-07-28); default: the session's own. */
  hub?: SubscriptionHub;
  tasks?: TaskStore;
}

export function makeSession(limits: Partial<SessionLimits> = {}, opts: SessionFixtureOptions = {}): Fixture {
  const clock = { now: 1_000_000 };
  const fullLimits: SessionLimits = {
    requestsPerMinute: 200,
    toolCallsPerMinute: 60,
    timeoutMs: 5000,
    maxResultChars: 1000,
    pageSize: 200,
    ...limits,
  };
  const registry = new ToolRegistry(opts.toolsets ?? TEST_TOOLSETS, { slim: false, maxResultChars: fullLimits.maxResultChars });
  const events = opts.events ?? testEventBus();
  const env = opts.env?.(registry, events) ?? testEnvironment(registry, { ...opts, events });
  const now = () => clock.now;
  const session = new McpSession({
    registry,
    logger: silentLogger,
    now,
    limits: fullLimits,
    credential: opts.credential ?? credentialBudget(fullLimits, now),
    events,
    makeToolContext: (call) => toolContext(env, call),
    hub: opts.hub,
    tasks: opts.tasks,
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
  return { session, events, sent, clock, call, notify, init };
}

export function resultOf(response: JsonRpcResponse): Record<string, unknown> {
  if ("error" in response) throw new Error(`expected a result, got error ${response.error.code}: ${response.error.message}`);
  return response.result;
}

export function errorOf(response: JsonRpcResponse): { code: number; message: string; data?: unknown } {
  if (!("error" in response)) throw new Error(`expected an error, got ${JSON.stringify(response.result)}`);
  return response.error;
}

/** The {error, code, suggestion} of an isError tool result (test/helpers/tool-error.ts). */
export { readToolError as toolError } from "./tool-error.ts";
