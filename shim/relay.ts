// The shim's relay between the MCP client (stdin/stdout) and one bridge socket at a time.
// It remembers the client's `initialize`, `notifications/initialized` and `logging/setLevel`, so
// that when a reconnect lands on a new session (the bridge restarted, or the grace period ran out)
// it can replay them itself and swallow the answers: the client never sees "not initialized".
// Lines the client sends while there is no socket wait in a bounded queue; requests in flight when
// a socket drops get an error, never a silent retry (tools may have side effects). When no bridge
// can be had, every request is answered at once with the reason instead. DESIGN.md, "Sessions and
// the shim". A modern client (MCP 2026-07-28) needs no replay, its requests stand alone; what it
// keeps open is its subscriptions/listen requests, which are sent again to a new bridge session so
// the client, whose stdio connection never broke, keeps hearing list changes.
import type { BridgeLink } from "./bridge-link.ts";
import { EarlyInitialize, type PredictAnswer } from "./early-initialize.ts";
import { announcesToolListChanges, parseObject, requestIdOf } from "./json-values.ts";
import type { ShimLog } from "./log.ts";
import {
  asAttachNotice,
  classifyBridgeFrame,
  errorLine,
  idKey,
  ShimErrorCode,
  type AttachNotice,
  type ClientMessage,
  type RequestId,
  type ShimError,
  type ShimErrorReason,
} from "./messages.ts";

interface RelayOptions {
  /** Writes one line to the client; false when the client is not keeping up. */
  writeClient(line: string): boolean;
  log: ShimLog;
  /** Messages kept while disconnected, so a bridge that is gone costs bounded memory; beyond it requests get an error. */
  maxQueue: number;
  /** How long to wait for the bridge's attach notice before assuming an older bridge. */
  noticeTimeoutMs: number;
  /** How long a replayed request may take. */
  replayTimeoutMs: number;
}

interface Remembered {
  id: RequestId;
  text: string;
  params: unknown;
}

const INTERNAL_PREFIX = "claude-ide-bridge-shim/";
const DISCOVER_METHOD = "server/discover";
const LISTEN_METHOD = "subscriptions/listen";
const ACK_METHOD = "notifications/subscriptions/acknowledged";
const SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";

export class Relay {
  private link: BridgeLink | undefined;
  private ready = false;
  private queue: ClientMessage[] = [];
  /** Client requests sent on the current socket and not answered yet. */
  private readonly pending = new Map<string, { id: RequestId; method: string }>();
  private readonly internal = new Map<string, (value: Record<string, unknown> | undefined) => void>();
  private internalSeq = 0;
  private noticeWaiter: ((notice: AttachNotice | undefined) => void) | undefined;
  private initialize: Remembered | undefined;
  private initializeResult: Record<string, unknown> | undefined;
  /** The client's initialize was in flight when a socket dropped: it is resent, being side-effect free. */
  private initializeToResend: Remembered | undefined;
  private initializedNotification: string | undefined;
  private logLevelParams: unknown;
  private attachments = 0;
  /** Set while no bridge can be had: requests are answered with it instead of waiting. */
  private unavailable: ShimError | undefined;
  /** The client's open subscriptions/listen requests, by id key: sent again to a new bridge session. */
  private readonly listens = new Map<string, ClientMessage & { kind: "request" }>();
  /** Subscriptions sent again: the client already had their acknowledgement, so the bridge's is dropped. */
  private readonly resentListens = new Set<string>();
  private readonly early: EarlyInitialize;

  constructor(private readonly opts: RelayOptions) {
    this.early = new EarlyInitialize({ ...opts, onAnswered: (result) => (this.initializeResult = result) });
  }

  get connected(): boolean {
    return this.ready;
  }

  /** Requests waiting for an answer: sent, queued, or an initialize to resend. */
  get outstanding(): number {
    return this.pending.size + this.queue.filter((m) => m.kind === "request").length + (this.initializeToResend ? 1 : 0);
  }

  fromClient(message: ClientMessage): void {
    if (message.kind === "request" && message.method === LISTEN_METHOD) {
      this.listens.set(idKey(message.id), message);
    } else if (message.kind === "notification" && message.method === "notifications/cancelled") {
      const id = requestIdOf(message.params);
      if (id !== undefined) this.listens.delete(idKey(id));
    }
    if (message.kind === "request" && message.method === "initialize") {
      // The result stays until a new one arrives: a refused second initialize must not undo the first.
      this.initialize = { id: message.id, text: message.text, params: message.params };
      this.initializeToResend = undefined;
    } else if (message.kind === "request" && message.method === "logging/setLevel") {
      this.logLevelParams = message.params;
    } else if (message.kind === "notification" && message.method === "notifications/initialized") {
      this.initializedNotification = message.text;
    }
    if (this.ready && this.link) this.forward(this.link, message);
    else if (this.unavailable && message.kind === "request") this.replyUnavailable(message, this.unavailable);
    else if (!this.unavailable && !this.early.tryAnswer(message)) this.enqueue(message);
  }

  /** Until a bridge is reached, server/discover and the first initialize are answered with `predict`'s answers (early-initialize.ts). */
  answerInitializeEarly(predict: PredictAnswer): void {
    if (this.ready || this.initializeResult !== undefined) return;
    this.early.enable(predict);
    this.queue = this.queue.filter((m) => !this.early.tryAnswer(m));
  }

  /**
   * No bridge can be had (none found in time, or the one started failed): queued requests and
   * every later one are answered with `error` until a bridge connects.
   */
  setUnavailable(error: ShimError): void {
    if (this.ready) return;
    this.unavailable = error;
    const queued = this.queue;
    this.queue = [];
    for (const message of queued) if (message.kind === "request") this.replyUnavailable(message, error);
  }

  /**
   * With no bridge to be had: the reason, except for the MCP 2026-07-28 probe (protocol.md B8, E),
   * which is the bridge's to answer; -32601 then sends the client to initialize at once, whose
   * answer says why.
   */
  private replyUnavailable(message: ClientMessage & { kind: "request" }, error: ShimError): void {
    if (message.method !== DISCOVER_METHOD) {
      this.reply(message.id, error);
      return;
    }
    this.reply(message.id, {
      code: ShimErrorCode.methodNotFound,
      message: `Method not found: ${DISCOVER_METHOD}; no bridge is reachable (${error.message})`,
      reason: "legacy_protocol",
    });
  }

  /** Answers the client directly (shim-level errors: bad input, full queue, give-up). */
  reply(id: RequestId | null, error: ShimError): void {
    this.opts.writeClient(errorLine(id, error));
  }

  /**
   * Takes a freshly opened socket: waits for the bridge's attach notice, replays the client's
   * initialize when the session behind the socket is new, then sends what was queued.
   */
  async attach(link: BridgeLink, opts: { expectNotice: boolean }): Promise<void> {
    this.link = link;
    this.ready = false;
    this.unavailable = undefined;
    // Waiting before listening: frames that came with the handshake are delivered at once.
    const noticeArrives = opts.expectNotice ? this.waitForNotice() : Promise.resolve(undefined);
    link.onMessage((text) => this.fromBridge(link, text));
    link.onClose(() => this.detach(link));

    const notice = await noticeArrives;
    if (this.link !== link) return;
    // undefined: an older bridge or another IDE that sends no notice; replaying is then harmless
    // (a kept session answers "already initialized", which is swallowed like the result).
    const sessionInitialized = notice?.initialized;
    if (notice) {
      const what = `bridge session ${notice.session}: ${notice.resumed ? "resumed" : "new"}${notice.initialized ? ", initialized" : ""}`;
      if (++this.attachments === 1) this.opts.log.debug(what);
      else this.opts.log.info(what);
    }

    if (this.early.unconfirmed && sessionInitialized !== true) {
      // Before anything queued (the client's initialized notification comes next): the bridge's own answer.
      const answer = await this.internalRequest(link, "initialize", this.initialize?.params);
      if (this.link !== link) return;
      this.early.confirm(answer);
    } else if (this.initializeResult !== undefined && this.initialize && sessionInitialized !== true) {
      if (!(await this.replay(link, notice))) return;
    } else if (this.initializeToResend) {
      const init = this.initializeToResend;
      this.initializeToResend = undefined;
      if (sessionInitialized === true) {
        this.reply(init.id, {
          code: ShimErrorCode.bridgeUnavailable,
          message: "The bridge connection dropped while initialize was in flight and its answer was lost; reconnect this MCP server.",
          reason: "bridge_disconnected",
        });
      } else {
        this.forward(link, { kind: "request", id: init.id, method: "initialize", params: init.params, text: init.text });
      }
    }
    this.ready = true;
    this.early.disable();
    if (notice?.resumed !== true) this.resendListens(link, notice !== undefined);
    const queued = this.queue;
    this.queue = [];
    for (const message of queued) this.forward(link, message);
  }

  /**
   * A new bridge session holds none of the client's subscriptions: send them again, and tell the
   * client the tool list may have changed (a restarted bridge may offer other tools).
   */
  private resendListens(link: BridgeLink, restarted: boolean): void {
    const queuedIds = new Set(this.queue.flatMap((m) => (m.kind === "request" ? [idKey(m.id)] : [])));
    for (const [key, listen] of this.listens) {
      if (queuedIds.has(key) || this.pending.has(key)) continue;
      this.resentListens.add(key);
      this.forward(link, listen);
      const asked = (listen.params as { notifications?: { toolsListChanged?: unknown } } | undefined)?.notifications;
      if (restarted && asked?.toolsListChanged === true) {
        const params = { _meta: { [SUBSCRIPTION_ID]: listen.id } };
        this.opts.writeClient(JSON.stringify({ jsonrpc: "2.0", method: "notifications/tools/list_changed", params }));
      }
    }
  }

  /** Stops reading the socket while the client (stdout) catches up. */
  pauseBridge(): void {
    this.link?.pause();
  }

  resumeBridge(): void {
    this.link?.resume();
  }

  /** Answers every outstanding request with an error (give-up, refused token, shutdown). */
  failAll(message: string, reason: ShimErrorReason): void {
    const ids: RequestId[] = [...this.pending.values()].map((p) => p.id);
    for (const m of this.queue) if (m.kind === "request") ids.push(m.id);
    if (this.initializeToResend) ids.push(this.initializeToResend.id);
    this.pending.clear();
    this.queue = [];
    this.initializeToResend = undefined;
    for (const id of ids) this.reply(id, { code: ShimErrorCode.bridgeUnavailable, message, reason });
  }

  private async replay(link: BridgeLink, notice: AttachNotice | undefined): Promise<boolean> {
    const init = this.initialize;
    if (!init) return true;
    const answer = await this.internalRequest(link, "initialize", init.params);
    if (this.link !== link) return false;
    if (answer === undefined) {
      this.opts.log.warn("the bridge did not answer the replayed initialize; continuing");
    } else if ("error" in answer) {
      // No notice (older bridge): "already initialized" means the session was kept after all.
      if (notice) this.opts.log.warn(`the bridge refused the replayed initialize: ${JSON.stringify(answer.error)}`);
    } else {
      this.opts.log.info("replayed initialize on the new bridge session; the client keeps its session");
    }
    if (this.initializedNotification) link.send(this.initializedNotification);
    if (this.logLevelParams !== undefined) void this.internalRequest(link, "logging/setLevel", this.logLevelParams);
    if (notice && !notice.resumed && announcesToolListChanges(this.initializeResult)) {
      // A restarted bridge may offer other tools (new version, other flags): have the client look again.
      this.opts.writeClient(JSON.stringify({ jsonrpc: "2.0", method: "notifications/tools/list_changed" }));
    }
    return true;
  }

  private enqueue(message: ClientMessage): void {
    if (this.queue.length < this.opts.maxQueue) {
      this.queue.push(message);
      return;
    }
    if (message.kind === "request") {
      this.reply(message.id, {
        code: ShimErrorCode.bridgeUnavailable,
        message: `The bridge is not connected and ${this.opts.maxQueue} messages are already waiting for it; this request was not sent. Retry later.`,
        reason: "queue_full",
      });
    } else {
      this.opts.log.warn(
        `dropped a ${message.kind === "notification" ? `${message.method} notification` : "message"}: the bridge is not connected and the queue is full (${this.opts.maxQueue})`,
      );
    }
  }

  private forward(link: BridgeLink, message: ClientMessage): void {
    if (message.kind === "request") this.pending.set(idKey(message.id), { id: message.id, method: message.method });
    link.send(message.text);
  }

  private fromBridge(link: BridgeLink, text: string): void {
    if (this.link !== link) return;
    const frame = classifyBridgeFrame(text);
    if (this.noticeWaiter) {
      const waiter = this.noticeWaiter;
      this.noticeWaiter = undefined;
      const notice = frame.kind === "other" ? asAttachNotice(frame.value) : undefined;
      waiter(notice);
      if (notice) return;
    }
    if (frame.kind === "response" && frame.id !== null) {
      if (typeof frame.id === "string" && frame.id.startsWith(INTERNAL_PREFIX)) {
        const waiter = this.internal.get(frame.id);
        this.internal.delete(frame.id);
        waiter?.(parseObject(frame.value ?? text));
        return;
      }
      const key = idKey(frame.id);
      const sent = this.pending.get(key);
      this.pending.delete(key);
      // The subscription ended (the bridge answered it, or refused it): nothing to send again.
      this.listens.delete(key);
      this.resentListens.delete(key);
      if (sent?.method === "initialize") {
        const result = parseObject(frame.value ?? text)?.result;
        if (typeof result === "object" && result !== null) this.initializeResult = result as Record<string, unknown>;
      }
    } else if (frame.kind === "other" && frame.value === undefined) {
      // stdout carries JSON-RPC only (protocol.md B6); a foreign server's garbage stays here.
      this.opts.log.warn(`dropped a ${text.length}-char frame from the bridge that is not JSON`);
      return;
    } else if (frame.kind === "other" && asAttachNotice(frame.value)) {
      return;
    } else if (frame.kind === "other" && this.isResentAck(frame.value)) {
      return;
    }
    // One message per line: a pretty-printed frame (not ours, but another IDE's) is re-serialized.
    this.opts.writeClient(text.includes("\n") ? JSON.stringify(frame.value ?? JSON.parse(text)) : text);
  }

  /** The acknowledgement of a subscription sent again: the client had its own already. */
  private isResentAck(value: unknown): boolean {
    if (typeof value !== "object" || value === null || !("method" in value) || value.method !== ACK_METHOD) return false;
    const id = (value as { params?: { _meta?: Record<string, unknown> } }).params?._meta?.[SUBSCRIPTION_ID];
    if (typeof id !== "string" && typeof id !== "number") return false;
    return this.resentListens.delete(idKey(id));
  }

  private detach(link: BridgeLink): void {
    if (this.link !== link) return;
    this.link = undefined;
    this.ready = false;
    this.noticeWaiter?.(undefined);
    this.noticeWaiter = undefined;
    for (const waiter of this.internal.values()) waiter(undefined);
    this.internal.clear();
    const lost = [...this.pending.values()];
    this.pending.clear();
    for (const request of lost) {
      // An open subscription is not lost: it is sent again on the next socket (resendListens).
      if (request.method === LISTEN_METHOD && this.listens.has(idKey(request.id))) continue;
      const firstInitialize = this.initializeResult === undefined && this.initialize && idKey(this.initialize.id) === idKey(request.id);
      if (request.method === "initialize" && firstInitialize) {
        this.initializeToResend = this.initialize;
        continue;
      }
      this.reply(request.id, {
        code: ShimErrorCode.bridgeUnavailable,
        message: `The connection to the bridge was lost while ${request.method} was in flight (the bridge stopped, crashed or restarted). It was not retried, since tools may have side effects; retry it if that is safe.`,
        reason: "bridge_disconnected",
        data: { method: request.method },
      });
    }
  }

  private waitForNotice(): Promise<AttachNotice | undefined> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.noticeWaiter = undefined;
        resolve(undefined);
      }, this.opts.noticeTimeoutMs);
      this.noticeWaiter = (notice) => {
        clearTimeout(timer);
        resolve(notice);
      };
    });
  }

  private internalRequest(link: BridgeLink, method: string, params: unknown): Promise<Record<string, unknown> | undefined> {
    const id = `${INTERNAL_PREFIX}${++this.internalSeq}`;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.internal.delete(id);
        resolve(undefined);
      }, this.opts.replayTimeoutMs);
      this.internal.set(id, (value) => {
        clearTimeout(timer);
        resolve(value);
      });
      const message: Record<string, unknown> = { jsonrpc: "2.0", id, method };
      if (params !== undefined) message.params = params;
      link.send(JSON.stringify(message));
    });
  }
}
