// The real Hono app with remote access on, driven in-process (app.request, no sockets): the bridge's
// own authorization server over a temporary state directory, read-only sessions for mcp:read
// tokens, and a clock the test moves. Wired as src/bridge.ts wires it.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as v from "valibot";
import { createNodeRuntime } from "../../runtime/node.ts";
import { createApp } from "../../src/app.ts";
import { silentLogger } from "../../src/log.ts";
import { createHttpClient } from "../../src/capabilities/http/http-client.ts";
import { credentialBudget } from "../../src/mcp/limits/rate-budget.ts";
import { takeFromAll } from "../../src/mcp/limits/token-bucket.ts";
import { McpSession, type SessionLimits } from "../../src/mcp/sessions/session.ts";
import { SessionStore } from "../../src/mcp/sessions/session-store.ts";
import type { FetchDocument } from "../../src/security/auth/oauth/client-metadata.ts";
import { openRemoteAccess, type RemoteAccess, type RemoteAccessOptions } from "../../src/security/auth/oauth/remote-access.ts";
import { defineTool } from "../../src/tools/platform/define-tool.ts";
import { ToolRegistry } from "../../src/tools/platform/registry.ts";
import { toolContext } from "../../src/tools/platform/tool-environment.ts";
import { defineToolset, type Toolset } from "../../src/tools/platform/toolset.ts";
import { StreamableHttpTransport } from "../../src/transports/http/streamable-http.ts";
import type { Fetch } from "./oauth-client.ts";
import { ALL_TEST_TOOLS, testEnvironment, testEventBus } from "./session-fixture.ts";

export const OWNER_TOKEN = "owner-token-0123456789abcdef";
export const ISSUER = "https://bridge.example.com";

/** A tool that is not read-only: tokens with only mcp:read may not call it. */
export const touchTool = defineTool({
  name: "touch",
  description: "Pretends to change the workspace.",
  searchHint: "touch change write",
  input: v.strictObject({}),
  annotations: { readOnlyHint: false, destructiveHint: false },
  async handler() {
    return "touched";
  },
});

const TOOLSETS: Toolset[] = [defineToolset({ name: "test", purpose: "tools for OAuth tests", tools: [...ALL_TEST_TOOLS, touchTool] })];

export interface OAuthAppOptions extends Partial<Pick<RemoteAccessOptions, "limits" | "identityProvider" | "tokenTtlSeconds">> {
  issuer?: string;
  corsOrigins?: string[];
  /** Reuse a state directory (a restart); a fresh one otherwise, removed by close(). */
  stateRoot?: string;
  fetchDocument?: FetchDocument;
}

export interface OAuthApp {
  fetch: Fetch;
  access: RemoteAccess;
  stateRoot: string;
  clock: { now: number; advance(ms: number): void };
  close(): Promise<void>;
}

export async function makeOAuthApp(opts: OAuthAppOptions = {}): Promise<OAuthApp> {
  const runtime = createNodeRuntime();
  const issuer = opts.issuer ?? ISSUER;
  const clock = {
    now: Date.now(),
    advance(ms: number) {
      clock.now += ms;
    },
  };
  const now = () => clock.now;
  const ownState = opts.stateRoot === undefined;
  const stateRoot = opts.stateRoot ?? (await mkdtemp(join(tmpdir(), "oauth-state-")));
  const registry = new ToolRegistry(TOOLSETS, { slim: false, maxResultChars: 10_000 });
  const readTools = TOOLSETS.map((t) => ({ ...t, tools: t.tools.filter((tool) => tool.annotations.readOnlyHint === true) }));
  const readRegistry = new ToolRegistry(readTools, { slim: false, maxResultChars: 10_000 });
  const env = testEnvironment(registry, { maxResultChars: 10_000, events: testEventBus() });
  const limits: SessionLimits = {
    requestsPerMinute: 10_000,
    toolCallsPerMinute: 10_000,
    timeoutMs: 5000,
    maxResultChars: 10_000,
    pageSize: 200,
  };
  const credential = credentialBudget(limits);
  const session = (reg: ToolRegistry) => () =>
    new McpSession({
      registry: reg,
      logger: silentLogger,
      limits,
      credential,
      events: testEventBus(),
      makeToolContext: (call) => toolContext(env, call),
    });
  const transport = (reg: ToolRegistry) =>
    new StreamableHttpTransport({
      createSession: session(reg),
      admitUnbound: () => takeFromAll([credential.requests]),
      maxSessions: 20,
      logger: silentLogger,
    });
  const http = transport(registry);
  const readOnlyHttp = transport(readRegistry);
  const fetchDocument: FetchDocument =
    opts.fetchDocument ??
    (async (url, o) => {
      const answer = await createHttpClient({ runtime, allowPrivate: false }, AbortSignal.timeout(o.timeoutMs)).request(url, {
        timeoutMs: o.timeoutMs,
        maxBytes: o.maxBytes,
        maxRedirects: 0,
      });
      return { status: answer.status, headers: answer.headers, text: answer.text, truncated: answer.truncated };
    });
  const access = await openRemoteAccess({
    fs: runtime.fs,
    stateRoot,
    issuer,
    ownerToken: OWNER_TOKEN,
    tokenTtlSeconds: opts.tokenTtlSeconds ?? 3600,
    fetchDocument,
    ...(opts.identityProvider && { identityProvider: opts.identityProvider }),
    ...(opts.limits && { limits: opts.limits }),
    now,
  });
  const issuerUrl = new URL(issuer);
  const app = createApp({
    runtime,
    token: OWNER_TOKEN,
    hostPolicy: { extraHosts: [issuerUrl.hostname], extraOrigins: [issuerUrl.origin, ...(opts.corsOrigins ?? [])] },
    http,
    sockets: new SessionStore({ createSession: session(registry), graceMs: 5000, logger: silentLogger }),
    logger: silentLogger,
    health: () => ({ status: "ok" }),
    remote: {
      access: async () => access,
      prefix: issuerUrl.pathname.replace(/\/+$/, ""),
      corsOrigins: opts.corsOrigins ?? [],
      readOnlyHttp,
      requiresWrite: (tool) => registry.get(tool)?.annotations.readOnlyHint === false,
    },
  });
  // A browser or client sends Host; a Request built in-process carries none unless told.
  const fetch: Fetch = async (url, init = {}) => {
    const headers = new Headers(init.headers);
    if (!headers.has("host")) headers.set("host", new URL(url).host);
    return app.request(url, { ...init, headers });
  };
  return {
    fetch,
    access,
    stateRoot,
    clock,
    async close() {
      http.stop();
      readOnlyHttp.stop();
      if (ownState) await rm(stateRoot, { recursive: true, force: true });
    },
  };
}

/** An MCP session over /mcp with a bearer token: initialize, then one request; its JSON-RPC result or error. */
export async function mcpCall(
  fetch: Fetch,
  opts: { url: string; token: string; method: string; params?: Record<string, unknown> },
): Promise<{ status: number; body: Record<string, unknown>; wwwAuthenticate: string | null }> {
  const headers = {
    authorization: `Bearer ${opts.token}`,
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
  };
  const init = await fetch(opts.url, {
    method: "POST",
    headers,
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    }),
  });
  const session = init.headers.get("mcp-session-id");
  if (init.status !== 200 || session === null)
    return { status: init.status, body: await bodyOf(init), wwwAuthenticate: init.headers.get("www-authenticate") };
  const response = await fetch(opts.url, {
    method: "POST",
    headers: { ...headers, "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: opts.method, params: opts.params ?? {} }),
  });
  return { status: response.status, body: await bodyOf(response), wwwAuthenticate: response.headers.get("www-authenticate") };
}

/** A JSON body, or the last `data:` of an SSE one (tools/call answers on a stream). */
async function bodyOf(response: Response): Promise<Record<string, unknown>> {
  const text = await response.text();
  if ((response.headers.get("content-type") ?? "").includes("text/event-stream")) {
    const data = text
      .split("\n")
      .filter((l) => l.startsWith("data: ") && l.length > 6)
      .at(-1);
    return data === undefined ? {} : (JSON.parse(data.slice(6)) as Record<string, unknown>);
  }
  return text === "" ? {} : (JSON.parse(text) as Record<string, unknown>);
}
