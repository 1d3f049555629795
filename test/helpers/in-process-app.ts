// The real Hono app with real sessions, driven in-process with app.request() (no sockets).
import { createNodeRuntime } from "../../runtime/node.ts";
import { createApp } from "../../src/app.ts";
import { silentLogger, type Logger } from "../../src/log.ts";
import { credentialBudget } from "../../src/mcp/limits/rate-budget.ts";
import { McpSession, type SessionLimits } from "../../src/mcp/sessions/session.ts";
import { SessionStore } from "../../src/mcp/sessions/session-store.ts";
import { takeFromAll } from "../../src/mcp/limits/token-bucket.ts";
import { ToolRegistry } from "../../src/tools/platform/registry.ts";
import { toolContext } from "../../src/tools/platform/tool-environment.ts";
import { StreamableHttpTransport } from "../../src/transports/http/streamable-http.ts";
import { TEST_TOOLSETS, testEnvironment, testEventBus } from "./session-fixture.ts";

export const TOKEN = "test-token-0123456789abcdef";

export interface MakeAppOptions {
  maxSessions?: number;
  now?: () => number;
  limits?: Partial<SessionLimits>;
  /** The app's logger (refused requests are logged there); the sessions stay silent. */
  logger?: Logger;
  onShutdownRequest?(): void;
}

export function makeApp(opts: MakeAppOptions = {}) {
  const registry = new ToolRegistry(TEST_TOOLSETS, { slim: false, maxResultChars: 10_000 });
  const events = testEventBus();
  const env = testEnvironment(registry, { maxResultChars: 10_000, events });
  const now = opts.now ?? Date.now;
  const limits: SessionLimits = {
    requestsPerMinute: 200,
    toolCallsPerMinute: 60,
    timeoutMs: 5000,
    maxResultChars: 10_000,
    pageSize: 200,
    ...opts.limits,
  };
  const credential = credentialBudget(limits, now);
  const createSession = () =>
    new McpSession({ registry, logger: silentLogger, now, limits, credential, events, makeToolContext: (call) => toolContext(env, call) });
  const http = new StreamableHttpTransport({
    createSession,
    admitUnbound: () => takeFromAll([credential.requests]),
    maxSessions: opts.maxSessions ?? 5,
    logger: silentLogger,
    now,
  });
  const sockets = new SessionStore({ createSession, graceMs: 5000, logger: silentLogger });
  const app = createApp({
    runtime: createNodeRuntime(),
    token: TOKEN,
    hostPolicy: { extraHosts: [] },
    http,
    sockets,
    logger: opts.logger ?? silentLogger,
    health: () => ({ status: "ok" }),
    onShutdownRequest: opts.onShutdownRequest,
  });
  return { app, http };
}

export const MCP_HEADERS = {
  host: "127.0.0.1:3000",
  authorization: `Bearer ${TOKEN}`,
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
};

export function post(app: ReturnType<typeof makeApp>["app"], body: unknown, headers: Record<string, string> = {}) {
  return app.request("http://127.0.0.1:3000/mcp", {
    method: "POST",
    headers: { ...MCP_HEADERS, ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

export async function initialize(app: ReturnType<typeof makeApp>["app"], version = "2025-11-25"): Promise<string> {
  const response = await post(app, {
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "t", version: "1" } },
  });
  const id = response.headers.get("mcp-session-id");
  if (response.status !== 200 || !id) throw new Error(`initialize failed: ${response.status} ${await response.text()}`);
  return id;
}

/** Reads SSE events from a body until `count` events arrived or the stream ended. */
export async function readEvents(body: ReadableStream<Uint8Array> | null, count = Number.POSITIVE_INFINITY) {
  const events: { id?: string; data: string }[] = [];
  if (!body) return events;
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  while (events.length < count) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    for (let cut = buffer.indexOf("\n\n"); cut >= 0; cut = buffer.indexOf("\n\n")) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      if (block.startsWith(":")) continue;
      const event: { id?: string; data: string } = { data: "" };
      for (const line of block.split("\n")) {
        if (line.startsWith("id: ")) event.id = line.slice(4);
        if (line.startsWith("data: ")) event.data = line.slice(6);
      }
      events.push(event);
    }
  }
  await reader.cancel();
  return events;
}
