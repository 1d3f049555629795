// Requests of the modern era (2026-07-28) that reach a session: each one stands alone, carrying
// its version and capabilities in `_meta` (read by the modern codec), so nothing here depends on
// initialize. A session handles them beside its legacy requests; the stateless HTTP endpoint has a
// session of its own for them. State that outlives a request is keyed by what the client carries:
// the task id of a task, the subscription id of a listen stream, a tool's own handles (watchId,
// transactionId) in the toolset states of `scope`.
import { ProtocolError, RpcCode } from "../../errors.ts";
import type { Budget } from "../limits/rate-budget.ts";
import { logNotifier, progressNotifier } from "../call/notifiers.ts";
import { type CallRun, type McpCore, toolUseIdOf } from "../core/mcp-core.ts";
import {
  errorMessageFor,
  type JsonRpcRequest,
  type JsonRpcResponse,
  notificationMessage,
  type Params,
  type RequestId,
  resultMessage,
} from "../protocol/jsonrpc.ts";
import {
  checkModernVersion,
  checkRoundTripFields,
  declaresExtension,
  discoverResult,
  EnvelopeError,
  missingCapability,
  type ModernEnvelope,
  modernError,
  modernResult,
  readEnvelope,
  META_SUBSCRIPTION_ID,
  REMOVED_IN_MODERN,
  TASKS_EXTENSION,
} from "../protocol/revisions/modern.ts";
import { agreedFilter, openSubscription, readFilter, type Subscription } from "../subscriptions/listen.ts";
import { watchResources } from "../subscriptions/resource-listen.ts";
import type { SubscriptionHub } from "../subscriptions/subscription-hub.ts";
import { progressMessage, runsAsTask } from "../tasks/task-policy.ts";
import type { TaskStore } from "../tasks/task-store.ts";
import type { MessageSink } from "./message-sink.ts";

/** The response and the HTTP status the revision gives it (the WebSocket ignores the status). */
export interface ModernReply {
  response: JsonRpcResponse | undefined;
  status: number;
}

interface ModernOptions {
  core: McpCore;
  hub: SubscriptionHub;
  tasks: TaskStore;
  /** The key toolset state is kept under: the session's id. */
  scope: string;
  /** The session's own tool-call budget; none for the stateless endpoint (the credential's only). */
  budget: Budget | undefined;
  /** Where notifications go when the request has no stream of its own (the socket). */
  sink(): MessageSink | undefined;
}

/** How the transport delivers one request: its stream, and what cancels it. */
export interface ModernDelivery {
  /** The request's own stream (an SSE response); else the session's socket. */
  related?: MessageSink;
  /** Closing the HTTP stream cancels (2026-07-28); on a socket notifications/cancelled does. */
  signal?: AbortSignal;
}

type Handler = (request: JsonRpcRequest, envelope: ModernEnvelope, delivery: ModernDelivery) => Params | Promise<Params | undefined>;

export class ModernRequests {
  /** Calls and subscriptions a notifications/cancelled may name (socket delivery only). */
  private readonly calls = new Map<RequestId, AbortController>();
  private readonly subscriptions = new Map<RequestId, Subscription>();
  /** Every open subscription, whatever delivers it (HTTP streams are not named by id). */
  private readonly open = new Set<Subscription>();
  private readonly handlers: Readonly<Record<string, Handler>> = {
    "server/discover": () => discoverResult(this.opts.core.instructions),
    "tools/list": (r) => this.opts.core.listTools(r.params?.cursor),
    "tools/call": (r, e, d) => this.callTool(r, e, d),
    "resources/list": (r, e, d) => this.withRun(r, e, d, (run) => this.opts.core.listResources(r.params?.cursor, run)),
    "resources/templates/list": () => this.opts.core.listResourceTemplates(),
    "resources/read": (r, e, d) => this.withRun(r, e, d, (run) => this.opts.core.readResource(r.params, run)),
    "prompts/list": () => this.opts.core.listPrompts(),
    "skills/list": () => this.opts.core.listSkills(),
    "skills/get": (r) => this.opts.core.getSkill(r.params),
    "prompts/get": (r, e, d) => this.withRun(r, e, d, (run) => this.opts.core.getPrompt(r.params, run)),
    "completion/complete": (r, e, d) => this.withRun(r, e, d, (run) => this.opts.core.complete(r.params, run)),
    "subscriptions/listen": (r, e, d) => this.listen(r, e, d),
    "tasks/get": (r, e) => this.task(r, e),
    "tasks/cancel": (r, e) => {
      const taskId = this.taskId(r, e);
      if (!this.opts.tasks.cancel(taskId)) throw unknownTask(taskId);
      return {};
    },
    // The bridge's tasks never ask for input, so there is nothing outstanding to answer.
    "tasks/update": (r, e) => {
      const taskId = this.taskId(r, e);
      if (this.opts.tasks.get(taskId) === undefined) throw unknownTask(taskId);
      return {};
    },
  };

  constructor(private readonly opts: ModernOptions) {}

  /** Requests being handled that a client can still cancel by id. */
  get inFlight(): number {
    return this.calls.size;
  }

  async handle(request: JsonRpcRequest, delivery: ModernDelivery = {}): Promise<ModernReply> {
    try {
      const envelope = readEnvelope(request.params);
      checkModernVersion(envelope);
      checkRoundTripFields(request.params);
      const handler =
        REMOVED_IN_MODERN.has(request.method) || !Object.hasOwn(this.handlers, request.method) ? undefined : this.handlers[request.method];
      if (handler === undefined) {
        const removed = REMOVED_IN_MODERN.has(request.method) ? " (MCP 2026-07-28 removed it; it exists only after a 2025 initialize)" : "";
        return {
          response: errorMessageFor(request.id, new ProtocolError(RpcCode.methodNotFound, `Method not found: ${request.method}${removed}`)),
          status: 404,
        };
      }
      const result = await handler(request, envelope, delivery);
      if (result === undefined) return { response: undefined, status: 200 };
      return { response: resultMessage(request.id, modernResult(request.method, result)), status: 200 };
    } catch (err) {
      if (!(err instanceof ProtocolError)) {
        this.opts.core.logger.error(`internal error in ${request.method}`, { error: String(err) });
        return { response: errorMessageFor(request.id, new ProtocolError(RpcCode.internalError, "Internal error")), status: 500 };
      }
      return { response: errorMessageFor(request.id, modernError(err)), status: err instanceof EnvelopeError ? 400 : 200 };
    }
  }

  /** notifications/cancelled named a request of ours: stop it. False when it names none. */
  cancel(id: RequestId): boolean {
    const call = this.calls.get(id);
    if (call) {
      call.abort("cancelled by client");
      return true;
    }
    const subscription = this.subscriptions.get(id);
    subscription?.end(false);
    return subscription !== undefined;
  }

  /** Ends every subscription gracefully: each listen request gets its result (the bridge stops). */
  endSubscriptions(): void {
    for (const subscription of [...this.open]) subscription.end(true);
  }

  /** The session ends: its calls stop, its subscriptions end with no answer (nobody is listening). */
  close(reason: string): void {
    for (const controller of this.calls.values()) controller.abort(reason);
    this.calls.clear();
    for (const subscription of this.open) subscription.end(false);
    this.open.clear();
    this.subscriptions.clear();
  }

  private async callTool(request: JsonRpcRequest, envelope: ModernEnvelope, delivery: ModernDelivery): Promise<Params> {
    const { core, tasks, scope } = this.opts;
    const prepared = core.prepareCall(request.params, { session: this.opts.budget });
    if (!prepared.ok) return prepared.result;
    const { tool, input } = prepared;
    if (declaresExtension(envelope, TASKS_EXTENSION) && runsAsTask(tool.name, input)) {
      const created = tasks.start(
        async (signal, report) =>
          modernResult(
            "tools/call",
            await core.runCall(tool, input, {
              scope,
              signal,
              progress: (progress, opts) => report(progressMessage(progress, opts)),
              // The extension carries no log notifications for tasks; they stay in the bridge's log.
              log: (level, message) => core.logger.debug(`[${tool.name}] ${level}: ${message}`),
            }),
          ),
        { statusMessage: `${tool.name} is running` },
      );
      if (created !== undefined) return { ...created, resultType: "task" };
    }
    const call = toolUseIdOf(request.params);
    return await this.withRun(request, envelope, delivery, (run) => core.runCall(tool, input, { ...run, ...call }), tool.name);
  }

  /**
   * Runs a request that runs tools (tools/call, prompts/get, completion/complete): cancellable by the
   * client, with its progress and log notifications (logged as `label`, the method by default).
   */
  private async withRun(
    request: JsonRpcRequest,
    envelope: ModernEnvelope,
    delivery: ModernDelivery,
    fn: (run: CallRun) => Promise<Params>,
    label: string = request.method,
  ): Promise<Params> {
    const controller = new AbortController();
    const stop = () => controller.abort("the client closed the request's stream");
    if (delivery.signal) {
      if (delivery.signal.aborted) stop();
      else delivery.signal.addEventListener("abort", stop, { once: true });
    } else {
      this.calls.set(request.id, controller);
    }
    const send = this.sender(delivery);
    try {
      return await fn({
        scope: this.opts.scope,
        signal: controller.signal,
        progress: progressNotifier(request.params?._meta, send),
        log: logNotifier(label, { threshold: () => envelope.logLevel, send, local: this.opts.core.logger }),
      });
    } finally {
      delivery.signal?.removeEventListener("abort", stop);
      if (this.calls.get(request.id) === controller) this.calls.delete(request.id);
    }
  }

  private async listen(request: JsonRpcRequest, envelope: ModernEnvelope, delivery: ModernDelivery): Promise<Params | undefined> {
    const asked = readFilter(request.params);
    const tasksDeclared = declaresExtension(envelope, TASKS_EXTENSION);
    if (asked.taskIds !== undefined && !tasksDeclared) {
      throw missingCapability(`task status notifications need the ${TASKS_EXTENSION} extension`, {
        extensions: { [TASKS_EXTENSION]: {} },
      });
    }
    const send = this.sender(delivery);
    const tag = { [META_SUBSCRIPTION_ID]: request.id };
    const uris = asked.resourceSubscriptions ?? [];
    // Watched before the acknowledgement, which names the URIs heard about; without any, no wait.
    const resources =
      uris.length === 0
        ? undefined
        : await watchResources(this.opts.core.opts.content?.watch, {
            uris,
            onUpdated: (uri) => send("notifications/resources/updated", { uri, _meta: tag }),
          });
    const subscription = openSubscription(this.opts.hub, {
      id: request.id,
      filter: agreedFilter(asked, {
        lists: ["toolsListChanged", "resourcesListChanged"],
        tasks: tasksDeclared,
        resources: resources?.honoured ?? [],
      }),
      send: (message) => send(message.method, message.params ?? {}),
    });
    if (resources !== undefined) {
      resources.start();
      void subscription.ended.then(() => resources.stop());
    }
    this.open.add(subscription);
    const end = () => subscription.end(false);
    if (delivery.signal) {
      if (delivery.signal.aborted) end();
      else delivery.signal.addEventListener("abort", end, { once: true });
    } else {
      this.subscriptions.get(request.id)?.end(false);
      this.subscriptions.set(request.id, subscription);
    }
    const result = await subscription.ended;
    this.open.delete(subscription);
    delivery.signal?.removeEventListener("abort", end);
    if (this.subscriptions.get(request.id) === subscription) this.subscriptions.delete(request.id);
    return result;
  }

  private task(request: JsonRpcRequest, envelope: ModernEnvelope): Params {
    const taskId = this.taskId(request, envelope);
    const task = this.opts.tasks.get(taskId);
    if (task === undefined) throw unknownTask(taskId);
    return task;
  }

  private taskId(request: JsonRpcRequest, envelope: ModernEnvelope): string {
    if (!declaresExtension(envelope, TASKS_EXTENSION)) {
      throw missingCapability(`${request.method} needs the ${TASKS_EXTENSION} extension`, { extensions: { [TASKS_EXTENSION]: {} } });
    }
    const taskId = request.params?.taskId;
    if (typeof taskId !== "string")
      throw new ProtocolError(RpcCode.invalidParams, `Invalid params: ${request.method} needs a string taskId`);
    return taskId;
  }

  /** Notifications of one request: on its own stream when it has one, else the session's socket. */
  private sender(delivery: ModernDelivery): (method: string, params: Params) => void {
    return (method, params) => (delivery.related ?? this.opts.sink())?.send(notificationMessage(method, params));
  }
}

function unknownTask(taskId: string): ProtocolError {
  return new ProtocolError(
    RpcCode.invalidParams,
    `Invalid params: unknown task ${taskId}; it finished over an hour ago, or the bridge restarted since (tasks live in its memory)`,
  );
}
