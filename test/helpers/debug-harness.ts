// Drives the debug tools the way a client does (an initialized McpSession: argument validation,
// result shaping, the result cap) over the bridge's own tool environment, and keeps that environment
// so a test can end the MCP session as the bridge does when a client goes away (states.releaseSession).
import * as v from "valibot";
import { expect } from "vitest";
import { createNodeRuntime } from "../../runtime/node.ts";
import type { DebugSession } from "../../src/dap/debug-session.ts";
import { DEBUG_SESSIONS } from "../../src/tools/debug/debug-sessions.ts";
import { debugToolset } from "../../src/tools/debug/index.ts";
import { createToolEnvironment, type ToolHost } from "../../src/tools/platform/tool-environment.ts";
import { createWorkspace } from "../../src/security/jail/workspace-jail.ts";
import { makeSession, resultOf, type Fixture } from "./session-fixture.ts";

const Result = v.object({
  content: v.array(v.looseObject({ type: v.string(), text: v.optional(v.string()) })),
  structuredContent: v.optional(v.record(v.string(), v.unknown())),
  isError: v.optional(v.literal(true)),
});

export interface DebugClient {
  fixture: Fixture;
  host: ToolHost;
  /** A successful structured result. */
  data<T = Record<string, unknown>>(name: string, args?: unknown): Promise<T>;
  text(name: string, args?: unknown): Promise<string>;
  failure(name: string, args?: unknown): Promise<{ error: string; code: string; suggestion: string }>;
  /** What the bridge does when the client's session ends: the debug sessions it started end too. */
  endMcpSession(): void;
  /** The client's latest debug session (its adapter's and program's pids, its stop). */
  latest(): DebugSession;
}

export async function debugClient(root: string): Promise<DebugClient> {
  const runtime = createNodeRuntime();
  const workspace = await createWorkspace(runtime.fs, { root });
  let host: ToolHost | undefined;
  const fixture = makeSession(
    { maxResultChars: 512 * 1024, toolCallsPerMinute: 100_000, requestsPerMinute: 100_000, timeoutMs: 120_000 },
    {
      toolsets: [debugToolset],
      env: (registry, events) => {
        host = createToolEnvironment(runtime, {
          workspace,
          settings: { timeoutMs: 120_000, slim: false, maxResultChars: 512 * 1024 },
          catalog: registry,
          events,
        });
        return host;
      },
    },
  );
  await fixture.init();
  await fixture.notify("notifications/initialized");
  if (host === undefined) throw new Error("the session built no tool environment");
  const env = host;
  const call = async (name: string, args: unknown = {}) =>
    v.parse(Result, resultOf(await fixture.call("tools/call", { name, arguments: args })));
  return {
    fixture,
    host: env,
    async data<T>(name: string, args?: unknown) {
      const r = await call(name, args);
      expect(r.isError, `${name}: ${r.content[0]?.text}`).toBeUndefined();
      return r.structuredContent as T;
    },
    async text(name, args) {
      const r = await call(name, args);
      expect(r.isError, `${name}: ${r.content[0]?.text}`).toBeUndefined();
      return r.content[0]?.text ?? "";
    },
    async failure(name, args) {
      const r = await call(name, args);
      expect(r.isError, JSON.stringify(r)).toBe(true);
      return JSON.parse(r.content[0]?.text ?? "{}");
    },
    endMcpSession: () => env.states.releaseSession(fixture.session.id),
    latest: () => env.states.get(DEBUG_SESSIONS).get(fixture.session.id, undefined).session,
  };
}
