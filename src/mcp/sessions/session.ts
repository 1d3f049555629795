// One MCP session: lifecycle, the method table, rate limits, cancellation, progress and logging.
// Transports only feed it messages and deliver what it sends; it knows nothing of sockets. Both
// eras reach it: legacy requests (after initialize) are answered here, modern ones (2026-07-28,
// per-request `_meta`) go to ModernRequests; what a method does is the core's (McpCore).
import { ProtocolError, RpcCode } from "../../errors.ts";
import type { ToolRegistry } from "../../tools/platform/registry.ts";
import { decodeMessage, peekId } from "../protocol/decode.ts";
import { eraOf } from "../protocol/era.ts";
import {
  errorMessageFor,
  notificationMessage,
  resultMessage,
  type Incoming,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type Params,
  type RequestId,
} from "../protocol/jsonrpc.ts";
import { negotiate } from "../protocol/revisions/legacy.ts";
import { isLogLevel, type LogLevel } from "../../capabilities/log-levels.ts";
import { logNotifier, progressNotifier } from "../call/notifiers.ts";
import { type CallRun, McpCore, toolUseIdOf } from "../core/mcp-core.ts";
import { rateLimitedError, sessionBudget, type Budget } from "../limits/rate-budget.ts";
import { takeFromAll, type TokenBucket } from "../limits/token-bucket.ts";
import type { ProtocolVersion } from "../protocol/versions.ts";
import { SubscriptionHub } from "../subscriptions/subscription-hub.ts";
import { SessionResources } from "../content/resource-requests.ts";
import { TaskStore } from "../tasks/task-store.ts";
import { type ClientRoots, clientRootsOf } from "./client-roots.ts";
import type { MessageSink } from "./message-sink.ts";
import type { SessionOptions } from "./session-options.ts";
import { type ModernDelivery, type ModernReply, ModernRequests } from "./modern-requests.ts";

export type { MessageSink } from "./message-sink.ts";

export type { SessionLimits } from "./session-options.ts";

/** A message's answer: the response of a request (undefined for anything else), now or later. */
export type Answer = JsonRpcResponse | undefined | Promise<JsonRpcResponse | undefined>;

type State = "new" | "initialized" | "closed";

/**
 * What a session checkpoint keeps of an initialized session (src/mcp/sessions/session-checkpoint.ts), so a
 * bridge restarted on the same port can hand a reattaching shim its session back.
 */
export interface SessionState {
  protocolVersion: ProtocolVersion;
  clientInfo?: { name: string; version?: string };
  logLevel?: LogLevel;
  stats: { callCount: number; errorCount: number };
  idePid?: number;
}

interface Method {
  /** Answered before initialize (the spec allows ping; initialize itself). */
  beforeInit?: boolean;
  handle(request: JsonRpcRequest, related: MessageSink | undefined): Params | Promise<Params>;
}

export class McpSession {
  readonly id = crypto.randomUUID();
  protocolVersion: ProtocolVersion | undefined;
  clientInfo: { name: string; version?: string } | undefined;
  /** PID Claude Code announced with `ide_connected`. */
  idePid: number | undefined;
  readonly stats = { callCount: 0, errorCount: 0 };
  lastActivity: number;

  private state: State = "new";
  private resources: SessionResources | undefined;
  private sink: MessageSink | undefined;
  private logLevel: LogLevel | undefined;
  private roots: ClientRoots | undefined;
  private readonly inflight = new Map<RequestId, AbortController>();
  private readonly budget: Budget;
  /** What admit() charges each incoming message to, built once (it runs for every message). */
  private readonly requestBuckets: readonly TokenBucket[];
  private readonly now: () => number;
  private readonly core: McpCore;
  private readonly modern: ModernRequests;
  private readonly methods: Readonly<Record<string, Method>> = {
    ping: { beforeInit: true, handle: () => ({}) },
    initialize: { beforeInit: true, handle: (r) => this.initialize(r.params ?? {}) },
    "tools/list": { handle: (r) => this.core.listTools(r.params?.cursor) },
    "tools/call": { handle: (r, related) => this.callTool(r, related) },
    "logging/setLevel": { handle: (r) => this.setLevel(r.params ?? {}) },
    "resources/list": { handle: (r, related) => this.withRun(r, related, (run) => this.core.listResources(r.params?.cursor, run)) },
    "resources/templates/list": { handle: () => this.core.listResourceTemplates() },
    "resources/read": { handle: (r, related) => this.withRun(r, related, (run) => this.core.readResource(r.params, run)) },
    "skills/list": { handle: () => this.core.listSkills() },
    "skills/get": { handle: (r) => this.core.getSkill(r.params) },
    "resources/subscribe": { handle: (r) => this.resourceSubscriptions().subscribe(r.params) },
    "resources/unsubscribe": { handle: (r) => this.resourceSubscriptions().unsubscribe(r.params) },
    "prompts/list": { handle: () => this.core.listPrompts() },
    "prompts/get": { handle: (r, related) => this.withRun(r, related, (run) => this.core.getPrompt(r.params, run)) },
    "completion/complete": { handle: (r, related) => this.withRun(r, related, (run) => this.core.complete(r.params, run)) },
  };

  /**
   * The tools this session serves. A transport may give a session another set before it is used:
   * Claude Code's IDE link gets the IDE tools (src/transports/ws/claude-code-socket.ts).
   */
  get registry(): ToolRegistry {
    return this.core.registry;
  }

  set registry(registry: ToolRegistry) {
    this.core.registry = registry;
  }

  constructor(private readonly opts: SessionOptions) {
    this.now = opts.now ?? Date.now;
    this.lastActivity = this.now();
    this.budget = sessionBudget(opts.limits, this.now);
    this.requestBuckets = opts.stateless ? [opts.credential.requests] : [this.budget.requests, opts.credential.requests];
    this.core = new McpCore(opts);
    this.modern = new ModernRequests({
      core: this.core,
      hub: opts.hub ?? new SubscriptionHub(),
      tasks: opts.tasks ?? new TaskStore(),
      scope: this.id,
      budget: opts.stateless ? undefined : this.budget,
      sink: () => (this.state === "closed" ? undefined : this.sink),
    });
  }

  get initialized(): boolean {
    return this.state === "initialized";
  }

  get closed(): boolean {
    return this.state === "closed";
  }

  /** Requests being handled right now; a session with any is never evicted. */
  get inFlight(): number {
    return this.inflight.size + this.modern.inFlight;
  }
  /** The state a checkpoint records; undefined until the session is initialized. */
  exportState(): SessionState | undefined {
    if (this.state !== "initialized" || this.protocolVersion === undefined) return undefined;
    const state: SessionState = { protocolVersion: this.protocolVersion, stats: { ...this.stats } };
    if (this.clientInfo !== undefined) state.clientInfo = { ...this.clientInfo };
    if (this.logLevel !== undefined) state.logLevel = this.logLevel;
    if (this.idePid !== undefined) state.idePid = this.idePid;
    return state;
  }

  /** Makes a new session what a checkpointed one was: initialized, same version, level and counters. */
  importState(state: SessionState): void {
    if (this.state !== "new") throw new Error("importState: only a new session can take a checkpointed state");
    this.protocolVersion = state.protocolVersion;
    this.clientInfo = state.clientInfo === undefined ? undefined : { ...state.clientInfo };
    this.logLevel = state.logLevel;
    this.idePid = state.idePid;
    this.stats.callCount = state.stats.callCount;
    this.stats.errorCount = state.stats.errorCount;
    this.state = "initialized";
  }

  /** The standalone channel for messages not tied to a request (WebSocket, GET SSE stream). */
  attach(sink: MessageSink): void {
    this.sink = sink;
    this.roots?.attached();
  }

  detach(sink?: MessageSink): void {
    if (!sink || this.sink === sink) this.sink = undefined;
  }

  /**
   * Charges one incoming message, whatever it turns out to be (valid, invalid, not even JSON), to
   * this session's and its credential's request budgets, before the transport parses it. Returns
   * 0, or the milliseconds to wait when refused (nothing was spent then).
   */
  admit(): number {
    const wait = takeFromAll(this.requestBuckets);
    // Every transport admits through here, so the refusal reaches the activity log and health score once.
    if (wait > 0) this.opts.events.publish("rate.limited", { limit: "requests", waitMs: wait, session: this.id });
    return wait;
  }

  /**
   * One message as text (a WebSocket frame, a stdio line): charged to the budgets first, then
   * decoded and handled. Malformed input gets an error response, never a throw. The answer comes
   * back at once when the method has it at once (ping, tools/list, errors), else as a promise: a
   * socket then writes it within the read that brought the request, which on Node costs a round
   * trip markedly less than writing it a promise turn later (bench/ws-ping.mjs).
   */
  handleText(text: string, related?: MessageSink): Answer {
    const wait = this.admit();
    if (wait > 0) {
      const id = peekId(text);
      // A notification (no id) gets no answer, as JSON-RPC wants; a request learns when to retry.
      return id === null && !/"id"\s*:/.test(text.slice(0, 512)) ? undefined : errorMessageFor(id, rateLimitedError(wait));
    }
    const decoded = decodeMessage(text);
    return decoded.ok ? this.answer(decoded.incoming, related) : decoded.response;
  }

  /**
   * Handles one message. Returns the response for a request, undefined otherwise. Messages the
   * handling emits (progress, logs) go to `related` when given, else to the attached sink.
   */
  async handle(incoming: Incoming, related?: MessageSink): Promise<JsonRpcResponse | undefined> {
    return this.answer(incoming, related);
  }

  /** handle(), answering at once when the method does (see handleText): what a subclass extends. */
  protected answer(incoming: Incoming, related?: MessageSink): Answer {
    this.lastActivity = this.now();
    if (incoming.kind === "notification") {
      this.onNotification(incoming.message);
      return undefined;
    }
    // The only requests a session sends are roots/list (src/mcp/sessions/client-roots.ts); a response gets no reply.
    if (incoming.kind === "response") return this.roots?.answer(incoming.message);
    const request = incoming.message;
    if (eraOf(request) === "modern") return this.handleModern(request, { related }).then((reply) => reply.response);
    let result: Params | Promise<Params>;
    try {
      result = this.dispatch(request, related);
    } catch (err) {
      return this.failed(request, err);
    }
    // Answered within this step: lastActivity, set above, is already the time of the answer.
    if (!(result instanceof Promise)) return resultMessage(request.id, result);
    return result.then(
      (params) => this.answered(request, params),
      (err: unknown) => this.failed(request, err),
    );
  }

  private answered(request: JsonRpcRequest, result: Params): JsonRpcResponse {
    this.lastActivity = this.now();
    return resultMessage(request.id, result);
  }

  private failed(request: JsonRpcRequest, err: unknown): JsonRpcResponse {
    this.lastActivity = this.now();
    if (err instanceof ProtocolError) return errorMessageFor(request.id, err);
    this.opts.logger.error(`internal error in ${request.method}`, { error: String(err) });
    return errorMessageFor(request.id, new ProtocolError(RpcCode.internalError, "Internal error"));
  }

  /**
   * One modern (2026-07-28) request, with the HTTP status its answer gets. Needs no initialize; the
   * stateless HTTP endpoint calls this directly, sockets reach it through handle().
   */
  async handleModern(request: JsonRpcRequest, delivery: ModernDelivery = {}): Promise<ModernReply> {
    this.lastActivity = this.now();
    if (this.state === "closed") {
      return { response: errorMessageFor(request.id, new ProtocolError(RpcCode.serverError, "Session closed")), status: 503 };
    }
    try {
      return await this.modern.handle(request, delivery);
    } finally {
      this.lastActivity = this.now();
    }
  }

  /** Ends the session's subscriptions/listen streams with their result (the bridge stops). */
  endSubscriptions(): void {
    this.modern.endSubscriptions();
  }

  /** Tells the client the tool list changed (MCP notifications/tools/list_changed). */
  notifyToolsListChanged(): void {
    if (this.initialized) this.sink?.send(notificationMessage("notifications/tools/list_changed"));
  }

  /** Ends the session: in-flight handlers see their signal abort. */
  close(reason = "session closed"): void {
    if (this.state === "closed") return;
    this.state = "closed";
    for (const controller of this.inflight.values()) controller.abort(reason);
    this.inflight.clear();
    this.modern.close(reason);
    this.resources?.close();
    this.sink = undefined;
    this.opts.onClosed?.(this.id);
  }

  private dispatch(request: JsonRpcRequest, related: MessageSink | undefined): Params | Promise<Params> {
    if (this.state === "closed") throw new ProtocolError(RpcCode.serverError, "Session closed");
    const method = Object.hasOwn(this.methods, request.method) ? this.methods[request.method] : undefined;
    if (method === undefined) throw new ProtocolError(RpcCode.methodNotFound, `Method not found: ${request.method}`);
    if (!method.beforeInit && this.state !== "initialized") {
      throw new ProtocolError(RpcCode.invalidRequest, `Invalid Request: server not initialized; send initialize before ${request.method}`);
    }
    return method.handle(request, related);
  }

  private initialize(params: Params): Params {
    if (this.state !== "new") throw new ProtocolError(RpcCode.invalidRequest, "Invalid Request: session already initialized");
    const negotiated = negotiate(params, this.opts.instructions);
    this.protocolVersion = negotiated.protocolVersion;
    this.clientInfo = negotiated.clientInfo;
    this.state = "initialized";
    const onRoots = this.opts.onClientRoots;
    const sink = () => (this.state === "closed" ? undefined : this.sink);
    this.roots = onRoots && clientRootsOf(params.capabilities, { sink, onRoots: (roots) => onRoots(this.id, roots) });
    return negotiated.result;
  }

  private setLevel(params: Params): Params {
    if (!isLogLevel(params.level)) {
      throw new ProtocolError(
        RpcCode.invalidParams,
        `Invalid params: level must be one of debug, info, notice, warning, error, critical, alert, emergency`,
      );
    }
    this.logLevel = params.level;
    return {};
  }

  private async callTool(request: JsonRpcRequest, related?: MessageSink): Promise<Params> {
    const prepared = this.core.prepareCall(request.params, { session: this.budget });
    if (!prepared.ok) return prepared.result;
    const { tool, input } = prepared;
    const controller = new AbortController();
    this.inflight.set(request.id, controller);
    this.stats.callCount += 1;
    try {
      const result = await this.core.runCall(tool, input, {
        ...toolUseIdOf(request.params),
        scope: this.id,
        signal: controller.signal,
        controller,
        progress: progressNotifier(request.params?._meta, this.sender(related)),
        log: logNotifier(tool.name, { threshold: () => this.logLevel, send: this.sender(related), local: this.opts.logger }),
      });
      if (result.isError) this.stats.errorCount += 1;
      return result;
    } finally {
      this.inflight.delete(request.id);
    }
  }

  /** This session's resources/subscribe state, made on first use. */
  private resourceSubscriptions(): SessionResources {
    const watch = this.opts.content?.watch;
    if (watch === undefined)
      throw new ProtocolError(RpcCode.methodNotFound, "Method not found: this server offers no resource subscriptions");
    this.resources ??= new SessionResources(watch, (method, params) => {
      if (this.initialized) this.sink?.send(notificationMessage(method, params));
    });
    return this.resources;
  }

  /** A request that runs tools for the session (prompts/get): cancellable like a tools/call. */
  private async withRun(request: JsonRpcRequest, related: MessageSink | undefined, fn: (run: CallRun) => Promise<Params>): Promise<Params> {
    const controller = new AbortController();
    this.inflight.set(request.id, controller);
    try {
      return await fn({
        scope: this.id,
        signal: controller.signal,
        progress: progressNotifier(request.params?._meta, this.sender(related)),
        log: logNotifier(request.method, { threshold: () => this.logLevel, send: this.sender(related), local: this.opts.logger }),
      });
    } finally {
      this.inflight.delete(request.id);
    }
  }

  /** Sends a notification tied to a request: on its own stream when it has one. */
  private sender(related?: MessageSink): (method: string, params: Params) => void {
    return (method, params) => {
      if (this.state !== "closed") (related ?? this.sink)?.send(notificationMessage(method, params));
    };
  }

  private onNotification(message: JsonRpcNotification): void {
    const params = message.params ?? {};
    switch (message.method) {
      case "notifications/cancelled": {
        const id = params.requestId;
        if (typeof id === "string" || typeof id === "number") {
          const legacy = this.inflight.get(id);
          if (legacy) legacy.abort("cancelled by client");
          else this.modern.cancel(id);
        }
        return;
      }
      case "notifications/initialized":
      case "notifications/roots/list_changed":
        this.roots?.ask();
        return;
      case "ide_connected":
        if (typeof params.pid === "number") this.idePid = params.pid;
        return;
      default: // unknown notifications need nothing (spec: ignore)
        return;
    }
  }
}
