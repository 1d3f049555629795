// The revision-neutral core of the protocol engine: what a method does, whatever era asked. Both
// the legacy session (initialize, then a session's requests) and the modern per-request path use
// it; their codecs (src/mcp/protocol/revisions/) put its results and errors in their own shapes.
// Nothing here knows of `_meta`, resultType or sessions.
import * as v from "valibot";
import { ProtocolError, RpcCode } from "../../errors.ts";
import type { EventPublisher } from "../../capabilities/events/event-bus.ts";
import type { CallScope, ToolContext } from "../../capabilities/context.ts";
import type { Logger } from "../../log.ts";
import type { Tool } from "../../tools/platform/define-tool.ts";
import type { ToolRegistry } from "../../tools/platform/registry.ts";
import { runToolCall, unknownToolResult, validateArguments } from "../call/tool-call.ts";
import { type CallToolResult, errorResult, outcomeOf } from "../call/tool-result.ts";
import type { Budget, RateLimits } from "../limits/rate-budget.ts";
import { takeFromAll } from "../limits/token-bucket.ts";
import { decodeCursor, encodeCursor } from "../protocol/cursor.ts";
import type { Params } from "../protocol/jsonrpc.ts";

export interface CoreLimits extends RateLimits {
  timeoutMs: number;
  maxResultChars: number;
  /** tools/list page size (the original's 200). */
  pageSize: number;
}

export interface CoreOptions {
  registry: ToolRegistry;
  makeToolContext(call: CallScope): ToolContext;
  limits: CoreLimits;
  /** The budget of the credential the caller authenticated with, shared by all its callers. */
  credential: Budget;
  /** Where finished tool calls are announced ("tool.called"). */
  events: EventPublisher;
  logger: Logger;
  instructions?: string;
  now?: () => number;
}

/** A checked tools/call: the tool and its validated input, or the result that ends it early. */
export type PreparedCall = { ok: true; tool: Tool; input: unknown } | { ok: false; result: CallToolResult };

/** How one call runs: whose state it touches, what stops it, where its notifications go. */
export interface CallRun {
  /** The key toolset state is kept under (a session id, or the stateless scope). */
  scope: string;
  signal: AbortSignal;
  progress: CallScope["progress"];
  log: CallScope["log"];
}

const CallParams = v.object({ name: v.string(), arguments: v.optional(v.unknown()) });

export class McpCore {
  readonly now: () => number;
  /** The tools served; a transport may swap them before first use (Claude Code's IDE link). */
  registry: ToolRegistry;

  constructor(readonly opts: CoreOptions) {
    this.now = opts.now ?? Date.now;
    this.registry = opts.registry;
  }

  get instructions(): string | undefined {
    return this.opts.instructions;
  }

  get logger(): Logger {
    return this.opts.logger;
  }

  /** One tools/list page; `nextCursor` only when more follow (MCP "Pagination"). */
  listTools(cursor: unknown): Params {
    const { registry } = this;
    const offset = decodeCursor(cursor, registry.version);
    const entries = registry.entries();
    const page = entries.slice(offset, offset + this.opts.limits.pageSize);
    const next = offset + page.length;
    return next < entries.length
      ? { tools: page, nextCursor: encodeCursor({ offset: next, listVersion: registry.version }) }
      : { tools: page };
  }

  listResources(): Params {
    return { resources: [] };
  }

  listResourceTemplates(): Params {
    return { resourceTemplates: [] };
  }

  readResource(params: Params | undefined): Params {
    const uri = params?.uri;
    throw new ProtocolError(RpcCode.resourceNotFound, `Resource not found: ${String(uri)}`, { data: { uri } });
  }

  listPrompts(): Params {
    return { prompts: [] };
  }

  getPrompt(params: Params | undefined): Params {
    throw new ProtocolError(RpcCode.invalidParams, `Invalid params: unknown prompt ${String(params?.name)}`);
  }

  /**
   * Checks a tools/call before it runs: its params, the tool-call budgets (`session` when the
   * caller has one of its own, always the credential's), the tool's existence and its arguments.
   * Charged before the tool is even looked up: unknown tools and invalid arguments count too.
   */
  prepareCall(params: Params | undefined, budgets: { session?: Budget }): PreparedCall {
    const parsed = v.safeParse(CallParams, params ?? {});
    if (!parsed.success) throw new ProtocolError(RpcCode.invalidParams, "Invalid params: tools/call needs a string `name`");
    const { credential, limits } = this.opts;
    const buckets = budgets.session ? [budgets.session.toolCalls, credential.toolCalls] : [credential.toolCalls];
    const wait = takeFromAll(buckets);
    if (wait > 0) {
      const seconds = (wait / 1000).toFixed(1);
      const which =
        budgets.session === undefined || budgets.session.toolCalls.has()
          ? `${credential.toolCalls.spec.perMinute}/min shared by all sessions of this token`
          : `${limits.toolCallsPerMinute}/min per session`;
      return {
        ok: false,
        result: errorResult("tool_rate_limited", `Tool call rate limit reached (${which}); retry in ${seconds} s`, {
          suggestion: `Wait ${seconds} s and call again, or start the bridge with a higher --tool-rate-limit.`,
        }),
      };
    }
    const tool = this.registry.get(parsed.output.name);
    // An isError result rather than -32602: the model reads it and can correct itself, which a
    // JSON-RPC error (shown by Claude Code as a bare failure) does not allow (seed ADR-0004).
    if (!tool) return { ok: false, result: unknownToolResult(parsed.output.name, this.registry) };
    const checked = validateArguments(tool, parsed.output.arguments);
    return checked.ok ? { ok: true, tool, input: checked.value } : { ok: false, result: checked.result };
  }

  /** Runs a prepared call to its result (timeouts, cancellation and failures included). */
  async runCall(tool: Tool, input: unknown, run: CallRun): Promise<CallToolResult> {
    const started = this.now();
    const result = await runToolCall({
      tool,
      input,
      signal: run.signal,
      makeContext: ({ signal }) =>
        this.opts.makeToolContext({
          session: run.scope,
          executables: [...(tool.requires.probes ?? []), ...(tool.requires.optionalProbes ?? [])],
          signal,
          progress: run.progress,
          log: run.log,
        }),
      timeoutMs: this.opts.limits.timeoutMs,
      maxResultChars: this.opts.limits.maxResultChars,
      logger: this.opts.logger,
    });
    this.opts.events.publish("tool.called", {
      tool: tool.name,
      session: run.scope,
      durationMs: this.now() - started,
      outcome: outcomeOf(result),
    });
    return result;
  }
}
