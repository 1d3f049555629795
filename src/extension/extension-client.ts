// The bridge's side of the VS Code extension link (protocol.ts): one connected extension at a time,
// its hello, requests with per-method timeouts, at most MAX_PENDING in flight, a circuit breaker,
// and the state it pushes. Every socket gets a generation: when a newer one takes over (a reload, a
// second window), the old socket's late answers, pushes and close are ignored, and what was pending
// on it fails at once instead of waiting for its timeout.
// The generation guard must see every path that touches the socket's state (hello, answers,
// pushes, close, the breaker), so those stay here; its types and error answers are beside it.
import * as v from "valibot";
import { ToolError, type ToolErrorCode } from "../errors.ts";
import { CloseCode } from "../wire.ts";
import { CircuitBreaker } from "./circuit-breaker.ts";
import { DiffRegistry, type DiffOutcome } from "./diff-registry.ts";
import { ExtensionUnavailable } from "./extension-unavailable.ts";
import {
  BRIDGE_REQUESTS,
  compatibleProtocols,
  EXTENSION_FAILED,
  EXTENSION_PROTOCOL_VERSION,
  EXTENSION_PUSHES,
  ExtensionClose,
  HelloParams,
  INCOMPATIBLE_PROTOCOL,
  missingMethod,
  timeoutFor,
  type BridgeMethod,
  type ParamsOf,
  type PushMethod,
  type PushOf,
  type ResultOf,
} from "./protocol.ts";
import { PushState } from "./push-state.ts";

export const MAX_PENDING = 100;
const HELLO_TIMEOUT_MS = 10_000;

/** What the transport gives the client of one upgraded socket. */
export type { ExtensionConnection, ExtensionEvent, ExtensionInfo, ExtensionSocket, ExtensionStatus } from "./extension-client-types.ts";
import type {
  ClientOptions,
  ExtensionConnection,
  ExtensionEvent,
  ExtensionSocket,
  ExtensionStatus,
  Link,
  Pending,
} from "./extension-client-types.ts";
import { cancelled, tooOld, unexpectedShape } from "./extension-errors.ts";

const Envelope = v.object({
  jsonrpc: v.literal("2.0"),
  id: v.optional(v.union([v.string(), v.number(), v.null()])),
  method: v.optional(v.string()),
  params: v.optional(v.unknown()),
  result: v.optional(v.unknown()),
  error: v.optional(v.object({ code: v.number(), message: v.string(), data: v.optional(v.unknown()) })),
});
const FailureData = v.object({ code: v.string(), suggestion: v.string() });

export class ExtensionClient {
  readonly state = new PushState();
  readonly diffs = new DiffRegistry();
  private readonly breaker: CircuitBreaker;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Set<(event: ExtensionEvent) => void>();
  private link: Link | undefined;
  private generation = 0;
  private nextId = 0;
  private stopped = false;

  constructor(private readonly opts: ClientOptions) {
    this.breaker = new CircuitBreaker({ now: opts.now, random: opts.random });
  }

  /** Connected and answering (or due a probe): tools may ask it. */
  get connected(): boolean {
    return this.link?.info !== undefined && this.breaker.state !== "open";
  }

  status(): ExtensionStatus {
    const info = this.link?.info;
    const breaker = this.breaker.state;
    const state =
      this.link === undefined ? "disconnected" : info === undefined ? "handshaking" : breaker === "open" ? "not_answering" : "connected";
    const status: ExtensionStatus = { state, breaker, pending: this.pending.size };
    if (breaker === "open") status.retryInMs = this.breaker.retryInMs();
    if (info !== undefined) status.info = { ...info };
    return status;
  }

  on(listener: (event: ExtensionEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A new extension socket; it takes over from the one before (the newest window wins). */
  attach(socket: ExtensionSocket): ExtensionConnection {
    if (this.stopped) {
      socket.close(CloseCode.goingAway, "the bridge is stopping");
      return { receive: () => undefined, closed: () => undefined };
    }
    const previous = this.link;
    if (previous !== undefined) {
      this.opts.log("info", "a newer VS Code extension connection takes over");
      this.drop(previous, "superseded by a newer extension connection");
      previous.socket.close(ExtensionClose.superseded, "another VS Code window took over the bridge");
    }
    const link: Link = { generation: ++this.generation, socket, info: undefined, helloTimer: undefined };
    link.helloTimer = setTimeout(() => {
      if (this.link !== link || link.info !== undefined) return;
      this.drop(link, "no hello");
      socket.close(ExtensionClose.noHello, `no extension/hello within ${this.opts.helloTimeoutMs ?? HELLO_TIMEOUT_MS} ms`);
    }, this.opts.helloTimeoutMs ?? HELLO_TIMEOUT_MS);
    this.link = link;
    return {
      receive: (text) => {
        if (this.link === link) this.receive(link, text);
      },
      closed: () => {
        if (this.link === link) this.drop(link, "the extension disconnected");
      },
    };
  }

  /** Sends a request and waits for its answer, checked against the protocol's result schema. */
  request<M extends BridgeMethod>(method: M, params: ParamsOf<M>, opts: { signal?: AbortSignal } = {}): Promise<ResultOf<M>> {
    const link = this.link;
    if (link?.info === undefined) return Promise.reject(new ExtensionUnavailable("disconnected", "The VS Code extension is not connected"));
    const since = missingMethod(method, link.info.protocolVersion);
    if (since !== undefined) return Promise.reject(tooOld(method, { have: link.info.protocolVersion, need: since }));
    if (this.pending.size >= MAX_PENDING)
      return Promise.reject(new ExtensionUnavailable("busy", `VS Code has ${MAX_PENDING} requests of the bridge unanswered`));
    const probe = this.breaker.state === "half-open";
    if (!this.breaker.allow()) {
      const seconds = Math.ceil(this.breaker.retryInMs() / 1000);
      return Promise.reject(
        new ExtensionUnavailable("circuit_open", `VS Code stopped answering the bridge; it is asked again in ${seconds} s`),
      );
    }
    if (opts.signal?.aborted) {
      if (probe) this.breaker.recordAnswer();
      return Promise.reject(cancelled(method));
    }
    const id = ++this.nextId;
    const timeoutMs = timeoutFor(method, params);
    return new Promise<ResultOf<M>>((resolve, reject) => {
      const onAbort = () => {
        if (!this.pending.delete(id)) return;
        clearTimeout(entry.timer);
        // The probe's question is withdrawn, not answered: let the next request probe.
        if (probe) this.breaker.recordAnswer();
        this.send(link, { jsonrpc: "2.0", method: "extension/cancelRequest", params: { id } });
        reject(cancelled(method));
      };
      const entry: Pending = {
        generation: link.generation,
        method,
        probe,
        timer: setTimeout(() => {
          if (!this.pending.delete(id)) return;
          opts.signal?.removeEventListener("abort", onAbort);
          this.breaker.recordTimeout();
          this.opts.log("warn", `the extension did not answer ${method} within ${timeoutMs} ms`, { breaker: this.breaker.state });
          reject(new ExtensionUnavailable("timeout", `VS Code did not answer ${method} within ${timeoutMs / 1000} s`));
        }, timeoutMs),
        resolve: (raw) => {
          opts.signal?.removeEventListener("abort", onAbort);
          const checked = v.safeParse(BRIDGE_REQUESTS[method].result, raw);
          if (checked.success) resolve(checked.output as ResultOf<M>);
          else reject(unexpectedShape(method, checked.issues[0]));
        },
        reject: (err) => {
          opts.signal?.removeEventListener("abort", onAbort);
          reject(err);
        },
      };
      this.pending.set(id, entry);
      opts.signal?.addEventListener("abort", onAbort, { once: true });
      this.send(link, { jsonrpc: "2.0", id, method, params });
    });
  }

  /**
   * Shows a diff and waits for the user's answer. Rejected when the extension goes away, when
   * `signal` aborts (its tab is closed then), or when a new diff takes the same tab.
   */
  async openDiff(params: ParamsOf<"extension/openDiff">, opts: { owner: string; signal: AbortSignal }): Promise<DiffOutcome> {
    const answer = this.diffs.add(params.tabName, opts.owner);
    try {
      await this.request("extension/openDiff", params, { signal: opts.signal });
    } catch (err) {
      this.diffs.settle(params.tabName, { outcome: "rejected" });
      throw err;
    }
    const onAbort = () => {
      if (this.diffs.settle(params.tabName, { outcome: "rejected" })) void this.closeTabs([params.tabName]);
    };
    opts.signal.addEventListener("abort", onAbort, { once: true });
    try {
      return await answer;
    } finally {
      opts.signal.removeEventListener("abort", onAbort);
    }
  }

  /** Rejects and closes the bridge's pending diffs (all, or one session's); returns how many. */
  async closeDiffs(owner?: string): Promise<number> {
    const tabs = this.diffs.rejectAll(owner);
    if (tabs.length > 0) await this.closeTabs(tabs);
    return tabs.length;
  }

  /** Stops for good: the socket closed, everything pending failed. */
  stop(): void {
    this.stopped = true;
    const link = this.link;
    if (link === undefined) return;
    this.drop(link, "the bridge is stopping");
    link.socket.close(CloseCode.goingAway, "the bridge is stopping");
  }

  private async closeTabs(tabNames: string[]): Promise<void> {
    try {
      await this.request("extension/closeDiffs", { tabNames });
    } catch (err) {
      this.opts.log("warn", "could not close diff tabs in VS Code", { tabs: tabNames.length, error: String(err) });
    }
  }

  private drop(link: Link, why: string): void {
    if (this.link !== link) return;
    this.link = undefined;
    if (link.helloTimer !== undefined) clearTimeout(link.helloTimer);
    for (const [id, entry] of this.pending) {
      if (entry.generation !== link.generation) continue;
      this.pending.delete(id);
      clearTimeout(entry.timer);
      entry.reject(new ExtensionUnavailable("disconnected", `The VS Code extension went away before answering ${entry.method} (${why})`));
    }
    this.diffs.rejectAll();
    this.state.clear();
    if (link.info !== undefined) {
      this.opts.log("info", `VS Code extension disconnected: ${why}`);
      this.emit({ type: "disconnected" });
    }
  }

  private receive(link: Link, text: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      this.opts.log("warn", "the extension sent a frame that is not JSON; ignored");
      return;
    }
    const message = v.safeParse(Envelope, parsed);
    if (!message.success) {
      this.opts.log("warn", "the extension sent a message that is not JSON-RPC 2.0; ignored");
      return;
    }
    const { id, method } = message.output;
    if (method !== undefined && id !== undefined && id !== null) this.onRequest(link, id, method, message.output.params);
    else if (method !== undefined) this.onPush(link, method, message.output.params);
    else if (typeof id === "number") this.onResponse(link, id, message.output);
  }

  private onRequest(link: Link, id: string | number, method: string, params: unknown): void {
    if (method !== "extension/hello") {
      this.send(link, { jsonrpc: "2.0", id, error: { code: -32601, message: `Method not found: ${method}` } });
      return;
    }
    const hello = v.safeParse(HelloParams, params);
    if (!hello.success) {
      this.send(link, { jsonrpc: "2.0", id, error: { code: -32602, message: `Invalid hello: ${hello.issues[0].message}` } });
      return;
    }
    const h = hello.output;
    if (!compatibleProtocols(h.protocolVersion, EXTENSION_PROTOCOL_VERSION)) {
      const message = `The extension speaks protocol ${h.protocolVersion}, this bridge ${EXTENSION_PROTOCOL_VERSION}: update whichever is older (claude-ide-bridge install-extension installs the matching extension)`;
      this.opts.log("warn", message, { extensionVersion: h.extensionVersion });
      this.send(link, {
        jsonrpc: "2.0",
        id,
        error: { code: INCOMPATIBLE_PROTOCOL, message, data: { bridgeProtocol: EXTENSION_PROTOCOL_VERSION } },
      });
      this.drop(link, "incompatible protocol");
      link.socket.close(ExtensionClose.incompatible, "incompatible protocol version");
      return;
    }
    if (link.helloTimer !== undefined) clearTimeout(link.helloTimer);
    this.breaker.reset();
    this.state.clear();
    this.state.folders = h.workspaceFolders;
    link.info = {
      extensionVersion: h.extensionVersion,
      ideVersion: h.ideVersion,
      appName: h.appName,
      protocolVersion: h.protocolVersion,
      connectedAt: (this.opts.now ?? Date.now)(),
    };
    this.send(link, {
      jsonrpc: "2.0",
      id,
      result: { protocolVersion: EXTENSION_PROTOCOL_VERSION, bridgeVersion: this.opts.bridgeVersion, workspace: this.opts.workspace },
    });
    this.opts.log("info", `VS Code extension connected (${h.appName} ${h.ideVersion}, extension ${h.extensionVersion})`);
    this.emit({ type: "connected" });
  }

  private onPush(link: Link, method: string, params: unknown): void {
    if (link.info === undefined || !Object.hasOwn(EXTENSION_PUSHES, method)) return;
    const name = method as PushMethod;
    const checked = v.safeParse(EXTENSION_PUSHES[name], params);
    if (!checked.success) {
      this.opts.log("warn", `the extension sent ${method} with unexpected params; ignored`, { issue: checked.issues[0].message });
      return;
    }
    this.apply(name, checked.output);
    this.emit({ type: "push", method: name, params: checked.output });
  }

  private apply(method: PushMethod, params: unknown): void {
    // Each case reads the params its own schema just checked.
    switch (method) {
      case "extension/diagnosticsChanged":
        this.state.setDiagnostics((params as PushOf<typeof method>).files);
        return;
      case "extension/selectionChanged":
        this.state.setSelection(params as PushOf<typeof method>);
        return;
      case "extension/activeFileChanged":
        this.state.setActiveFile(params as PushOf<typeof method>);
        return;
      case "extension/aiCommentsChanged":
        this.state.setComments(params as PushOf<typeof method>);
        return;
      case "extension/workspaceFoldersChanged":
        this.state.folders = (params as PushOf<typeof method>).folders;
        return;
      case "extension/lspReady":
        this.state.languagesReady.add((params as PushOf<typeof method>).languageId);
        return;
      case "extension/diffResolved": {
        const resolved = params as PushOf<typeof method>;
        this.diffs.settle(
          resolved.tabName,
          resolved.outcome === "accepted" ? { outcome: "accepted", contents: resolved.contents ?? "" } : { outcome: "rejected" },
        );
        return;
      }
      default:
        return;
    }
  }

  private onResponse(link: Link, id: number, message: v.InferOutput<typeof Envelope>): void {
    const entry = this.pending.get(id);
    if (entry === undefined || entry.generation !== link.generation) return;
    this.pending.delete(id);
    clearTimeout(entry.timer);
    this.breaker.recordAnswer();
    if (message.error === undefined) {
      entry.resolve(message.result);
      return;
    }
    const data = v.safeParse(FailureData, message.error.data);
    entry.reject(
      message.error.code === EXTENSION_FAILED && data.success
        ? new ToolError(data.output.code as ToolErrorCode, message.error.message, { suggestion: data.output.suggestion })
        : new ToolError("tool_failed", `VS Code could not do ${entry.method}: ${message.error.message}`, {
            suggestion: "Check the VS Code window (a dialog, an unsaved file); retry once it is clear.",
          }),
    );
  }

  private send(link: Link, message: Record<string, unknown>): void {
    try {
      link.socket.send(JSON.stringify(message));
    } catch (err) {
      this.opts.log("warn", "could not send to the extension", { error: String(err) });
    }
  }

  private emit(event: ExtensionEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (err) {
        this.opts.log("warn", "an extension event listener failed", { error: String(err) });
      }
    }
  }
}
