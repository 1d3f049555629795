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
import { type CallToolResult, errorResult, outcomeOf, resultJsonLength } from "../call/tool-result.ts";
import type { Budget, RateLimits } from "../limits/rate-budget.ts";
import { takeFromAll } from "../limits/token-bucket.ts";
import { decodeCursor, encodeCursor } from "../protocol/cursor.ts";
import type { Params } from "../protocol/jsonrpc.ts";
import type { PromptCatalog } from "../../prompts/prompt-catalog.ts";
import type { PromptContext, RecentTestRun, ToolOutcome } from "../../prompts/prompt-context.ts";
import { completeArgument, getPrompt, listPrompts } from "../content/prompt-requests.ts";
import { listResourcesPage, listTemplates, readOne } from "../content/resource-requests.ts";
import type { ResourceContext } from "../../resources/resource-context.ts";
import type { ResourceWatch } from "../../resources/resource-watch.ts";
import type { Skill } from "../../skills/define-skill.ts";
import { getSkill, isSkillUri, listSkills, readSkillFile } from "../content/skill-requests.ts";

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
  /** Prompts and what they read besides tools; without them the prompt list is empty. */
  content?: ContentSources;
}

/** What prompts and resources are served from (src/prompts/), built once by the bridge. */
export interface ContentSources {
  prompts: PromptCatalog;
  recentTests(): RecentTestRun | undefined;
  /** What resources/subscribe listens to; without it subscriptions are refused. */
  watch?: ResourceWatch;
  /** The workflows served as MCP skills (skills/list, skills/get, skill:// files). */
  skills?: readonly Skill[];
}

/** A checked tools/call: the tool and its validated input, or the result that ends it early. */
export type PreparedCall = { ok: true; tool: Tool; input: unknown } | { ok: false; result: CallToolResult };

/** How one call runs: whose state it touches, what stops it, where its notifications go. */
export interface CallRun {
  /** The key toolset state is kept under (a session id, or the stateless scope). */
  scope: string;
  signal: AbortSignal;
  /** The controller of `signal`, when the caller made it for this call alone (the call's timeout reuses it). */
  controller?: AbortController;
  progress: CallScope["progress"];
  log: CallScope["log"];
  /** Claude Code's tool-use id of a tools/call (toolUseIdOf), passed on to the call's context. */
  toolUseId?: string;
}

/** `_meta["claudecode/toolUseId"]` of a request's params, when Claude Code sent one. */
export function toolUseIdOf(params: unknown): { toolUseId?: string } {
  const meta = (params as { _meta?: Record<string, unknown> } | undefined)?._meta;
  const id = meta?.["claudecode/toolUseId"];
  return typeof id === "string" && id.length <= 200 ? { toolUseId: id } : {};
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

  async listResources(cursor: unknown, run: CallRun): Promise<Params> {
    if (this.opts.content === undefined) return { resources: [] };
    return listResourcesPage(cursor, this.resourceContext(run), { pageSize: this.opts.limits.pageSize });
  }

  listResourceTemplates(): Params {
    return this.opts.content === undefined ? { resourceTemplates: [] } : listTemplates();
  }

  async readResource(params: Params | undefined, run: CallRun): Promise<Params> {
    if (this.opts.content === undefined) {
      const uri = params?.uri;
      throw new ProtocolError(RpcCode.resourceNotFound, `Resource not found: ${String(uri)}`, { data: { uri } });
    }
    if (isSkillUri(params?.uri)) return readSkillFile(this.opts.content.skills ?? [], params.uri);
    return readOne(params, this.resourceContext(run), { maxChars: this.opts.limits.maxResultChars });
  }

  listSkills(): Promise<Params> {
    return listSkills(this.opts.content?.skills ?? []);
  }

  getSkill(params: Params | undefined): Promise<Params> {
    return getSkill(this.opts.content?.skills ?? [], params);
  }

  /** What serving a resource reaches: the prompt context, plus the jailed filesystem. */
  private resourceContext(run: CallRun): ResourceContext {
    const ctx = this.opts.makeToolContext({
      session: run.scope,
      executables: [],
      signal: run.signal,
      progress: run.progress,
      log: run.log,
    });
    return { ...this.promptContext(run), fs: ctx.fs, extensionConnected: ctx.extension.connected };
  }

  listPrompts(): Params {
    return listPrompts(this.opts.content?.prompts);
  }

  getPrompt(params: Params | undefined, run: CallRun): Promise<Params> {
    return getPrompt(params, this.promptContext(run), { catalog: this.opts.content?.prompts });
  }

  complete(params: Params | undefined, run: CallRun): Promise<Params> {
    return completeArgument(params, this.promptContext(run), { catalog: this.opts.content?.prompts });
  }

  /** What a prompt reaches: the tools this session serves, run as calls of the session's own. */
  private promptContext(run: CallRun): PromptContext {
    return {
      signal: run.signal,
      recentTests: () => this.opts.content?.recentTests(),
      tool: (name, args) => this.invokeTool(name, args ?? {}, run),
    };
  }

  private async invokeTool(name: string, args: Record<string, unknown>, run: CallRun): Promise<ToolOutcome> {
    const tool = this.registry.get(name);
    if (tool === undefined) return { ok: false, text: `${name} is not served by this bridge (its toolset is off or needs a flag)` };
    const checked = validateArguments(tool, args);
    const result = checked.ok ? await this.runCall(tool, checked.value, run) : checked.result;
    const text = result.content.map((block) => (block.type === "text" ? block.text : `[${block.type} content]`)).join("\n");
    const outcome: ToolOutcome = { ok: result.isError !== true, text };
    if (result.structuredContent !== undefined) outcome.data = result.structuredContent;
    return outcome;
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
      this.opts.events.publish("rate.limited", { limit: "toolCalls", waitMs: wait });
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
      ...(run.controller === undefined ? {} : { controller: run.controller }),
      makeContext: ({ signal, deadline }) =>
        this.opts.makeToolContext({
          session: run.scope,
          ...(run.toolUseId === undefined ? {} : { toolUseId: run.toolUseId }),
          executables: [...(tool.requires.probes ?? []), ...(tool.requires.optionalProbes ?? [])],
          signal,
          ...(deadline === undefined ? {} : { deadline }),
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
      resultChars: resultJsonLength(result),
    });
    return result;
  }
}
