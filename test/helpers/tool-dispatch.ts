// Calls the bridge's real tools the way a client does: through an initialized McpSession (argument
// validation, the handler the dispatcher picks, result shaping and the result cap), on a real
// workspace with the bridge's own tool environment.
import * as v from "valibot";
import { expect } from "vitest";
import { createNodeRuntime } from "../../runtime/node.ts";
import type { JsonRpcMessage } from "../../src/mcp/protocol/jsonrpc.ts";
import { createWorkspace } from "../../src/security/jail/workspace-jail.ts";
import type { ExtensionLink, ToolSettings } from "../../src/capabilities/context.ts";
import { createToolEnvironment, type ToolEnvironmentOptions, type ToolHost } from "../../src/tools/platform/tool-environment.ts";
import type { Toolset } from "../../src/tools/platform/toolset.ts";
import { TOOLSETS } from "../../src/tools/toolsets.ts";
import { makeSession, resultOf, type Fixture } from "./session-fixture.ts";
import { ERROR_META_KEY, readToolError, type ReadToolError } from "./tool-error.ts";

/** What a tools/call result must look like; parsed, so a malformed result fails the test here. */
const ToolResultSchema = v.strictObject({
  content: v.array(v.looseObject({ type: v.string(), text: v.optional(v.string()) })),
  structuredContent: v.optional(v.record(v.string(), v.unknown())),
  isError: v.optional(v.literal(true)),
  /** Which backend answered (src/tools/platform/route-call.ts), on tools that have two. */
  _meta: v.optional(
    v.strictObject({
      "claude-ide-bridge/backend": v.optional(v.picklist(["extension", "headless"])),
      /** An isError result's code (test/helpers/tool-error.ts reads it). */
      [ERROR_META_KEY]: v.optional(v.strictObject({ code: v.string() })),
    }),
  ),
});
export type ToolResult = v.InferOutput<typeof ToolResultSchema>;

export interface Dispatcher {
  fixture: Fixture;
  call(name: string, args?: unknown, meta?: Record<string, unknown>): Promise<ToolResult>;
  /** A successful plain-text result: its one text block (and no structured content). */
  text(name: string, args?: unknown): Promise<string>;
  /** A successful structured result: its structuredContent (the text block is the same JSON). */
  data<T = Record<string, unknown>>(name: string, args?: unknown): Promise<T>;
  /** An isError result's code, message and suggestion (test/helpers/tool-error.ts). */
  failure(name: string, args?: unknown): Promise<ReadToolError>;
  /** notifications/progress sent for calls made with a progressToken. */
  progress(): Record<string, unknown>[];
}

export interface DispatcherOptions {
  toolsets?: readonly Toolset[];
  maxResultChars?: number;
  extension?: ExtensionLink;
  /** A runtime other than the real Node one as started (PATH or GH_* changed, a stubbed resolveHost, a counted spawn). */
  runtime?: ToolHost["runtime"];
  /** Settings beyond the result cap (allowPushToMain, --allow-command, --allow-private-http). */
  settings?: Partial<Omit<ToolSettings, "maxResultChars">>;
  /** ctx.lsp (test/helpers/lsp-fixture.ts); without it LSP tools answer that no server runs. */
  lsp?: ToolEnvironmentOptions["lsp"];
}

const nodeRuntime = createNodeRuntime();

/**
 * Each call's limit unless a test sets its own: the slowest calls the tests make (a commit of 600
 * files, a git tool's first run in a fresh repository) take 1 to 2 s on a quiet 2-core machine, so
 * a fifth of the limit holds them, and at load average 8 they still finish well within it.
 */
const CALL_LIMIT_MS = 30_000;

export async function dispatcher(root: string, opts: DispatcherOptions = {}): Promise<Dispatcher> {
  const runtime = opts.runtime ?? nodeRuntime;
  const workspace = await createWorkspace(runtime.fs, { root });
  const maxResultChars = opts.maxResultChars ?? 512 * 1024;
  const fixture = makeSession(
    // settings.timeoutMs is each call's limit too (a tool that declares a longer one gets that).
    { maxResultChars, toolCallsPerMinute: 100_000, requestsPerMinute: 100_000, timeoutMs: opts.settings?.timeoutMs ?? CALL_LIMIT_MS },
    {
      toolsets: opts.toolsets ?? TOOLSETS,
      env: (registry, events) =>
        createToolEnvironment(opts.runtime ?? runtime, {
          workspace,
          settings: { timeoutMs: CALL_LIMIT_MS, slim: false, ...opts.settings, maxResultChars },
          catalog: registry,
          events,
          ...(opts.extension === undefined ? {} : { extension: opts.extension }),
          ...(opts.lsp === undefined ? {} : { lsp: opts.lsp }),
        }),
    },
  );
  await fixture.init();
  await fixture.notify("notifications/initialized");
  const call = async (name: string, args: unknown = {}, meta?: Record<string, unknown>): Promise<ToolResult> => {
    const params: Record<string, unknown> = { name, arguments: args };
    if (meta !== undefined) params._meta = meta;
    return v.parse(ToolResultSchema, resultOf(await fixture.call("tools/call", params)));
  };
  return {
    fixture,
    call,
    async text(name, args) {
      const result = await call(name, args);
      expect(result.isError, JSON.stringify(result)).toBeUndefined();
      expect(result.structuredContent).toBeUndefined();
      expect(result.content).toHaveLength(1);
      return result.content[0]?.text ?? "";
    },
    async data<T>(name: string, args?: unknown): Promise<T> {
      const result = await call(name, args);
      expect(result.isError, JSON.stringify(result)).toBeUndefined();
      expect(result.structuredContent).toBeDefined();
      expect(JSON.parse(result.content[0]?.text ?? "null")).toEqual(result.structuredContent);
      return result.structuredContent as T;
    },
    async failure(name, args) {
      const result = await call(name, args);
      expect(result.isError, JSON.stringify(result)).toBe(true);
      const body = readToolError(result);
      expect(body.suggestion.length, JSON.stringify(result)).toBeGreaterThan(0);
      return body;
    },
    progress: () =>
      fixture.sent
        .filter((m: JsonRpcMessage) => "method" in m && m.method === "notifications/progress")
        .map((m) => ("params" in m ? (m.params ?? {}) : {})),
  };
}
