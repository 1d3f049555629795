// One debug adapter's DAP link over a pair of byte streams (its stdio, or a TCP socket): requests
// with a timeout each, events to listeners, and reverse requests (the adapter asking the client)
// answered by a handler or refused, so an adapter never waits on a question nobody answers.
import type { DebugProtocol } from "@vscode/debugprotocol";
import { MessageReader, encodeMessage } from "./dap-framing.ts";
import { type AdapterRefusal, refusalOf } from "./adapter-refusal.ts";

/** A failed request: the adapter's own message, or why no answer came. */
export class DapRequestError extends Error {
  readonly command: string;
  readonly reason: "failed" | "timeout" | "closed";
  /** The bridge's own refusal (the in-process adapter's), with its code and what to do instead. */
  readonly refusal: AdapterRefusal | undefined;

  constructor(message: string, opts: { command: string; reason: "failed" | "timeout" | "closed"; refusal?: AdapterRefusal }) {
    super(message);
    this.name = this.constructor.name;
    this.command = opts.command;
    this.reason = opts.reason;
    this.refusal = opts.refusal;
  }
}

export interface ByteDuplex {
  readonly readable: ReadableStream<Uint8Array>;
  readonly writable: WritableStream<Uint8Array>;
}

type EventListener = (event: DebugProtocol.Event) => void;
/** Answers one reverse request: the response's body, or a thrown Error whose message the adapter gets. */
export type ReverseHandler = (args: unknown) => Promise<unknown> | unknown;

const DEFAULT_TIMEOUT_MS = 30_000;

export class DapConnection {
  private seq = 1;
  private readonly pending = new Map<number, { command: string; resolve(r: DebugProtocol.Response): void; reject(e: Error): void }>();
  private readonly listeners = new Set<EventListener>();
  private readonly reverse = new Map<string, ReverseHandler>();
  private readonly writer: WritableStreamDefaultWriter<Uint8Array>;
  private closedReason: string | undefined;
  private reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  /** Resolves once the adapter's stream ended or close() was called. */
  readonly closed: Promise<void>;

  constructor(
    private readonly io: ByteDuplex,
    private readonly opts: { onProtocolError?(message: string): void } = {},
  ) {
    this.writer = io.writable.getWriter();
    this.closed = this.readLoop();
  }

  /** Sends a request; rejects with DapRequestError when the adapter refuses, does not answer in time, or goes away. */
  request<R extends DebugProtocol.Response>(command: string, args?: unknown, opts: { timeoutMs?: number } = {}): Promise<R> {
    if (this.closedReason !== undefined) {
      return Promise.reject(
        new DapRequestError(`The debug adapter is gone (${this.closedReason})`, { command: command, reason: "closed" }),
      );
    }
    const seq = this.seq++;
    const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    return new Promise<R>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(seq);
        reject(
          new DapRequestError(`The debug adapter did not answer ${command} within ${timeoutMs} ms`, {
            command: command,
            reason: "timeout",
          }),
        );
      }, timeoutMs);
      this.pending.set(seq, {
        command,
        resolve: (r) => {
          clearTimeout(timer);
          if (r.success) resolve(r as R);
          else reject(new DapRequestError(errorText(r), { command: command, reason: "failed", refusal: refusalOf(r) }));
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
      this.send({ seq, type: "request", command, ...(args === undefined ? {} : { arguments: args }) }).catch((err: unknown) => {
        this.pending.delete(seq);
        clearTimeout(timer);
        reject(new DapRequestError(`Could not write to the debug adapter: ${String(err)}`, { command: command, reason: "closed" }));
      });
    });
  }

  onEvent(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Reverse requests without a handler are refused (success: false) with the reason. */
  onReverseRequest(command: string, handler: ReverseHandler): void {
    this.reverse.set(command, handler);
  }

  /** Stops reading and writing; pending requests fail as "closed". Idempotent. */
  async close(): Promise<void> {
    this.markClosed("closed by the bridge");
    // Stop reading now: an adapter that keeps its output open must not keep the close waiting.
    await this.reader?.cancel().catch(() => {});
    await this.writer.close().catch(() => {});
    await this.closed.catch(() => {});
  }

  get isClosed(): boolean {
    return this.closedReason !== undefined;
  }

  private async send(message: object): Promise<void> {
    await this.writer.write(encodeMessage(message));
  }

  private async readLoop(): Promise<void> {
    const reader = this.io.readable.getReader();
    this.reader = reader;
    const messages = new MessageReader();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done || this.closedReason !== undefined) break;
        for (const message of messages.push(value)) this.dispatch(message);
      }
    } catch (err) {
      this.opts.onProtocolError?.(String(err));
    } finally {
      reader.cancel().catch(() => {});
      this.markClosed("its output ended");
    }
  }

  private dispatch(message: unknown): void {
    if (typeof message !== "object" || message === null) return;
    const m = message as DebugProtocol.ProtocolMessage;
    if (m.type === "response") {
      const r = m as DebugProtocol.Response;
      const waiting = this.pending.get(r.request_seq);
      this.pending.delete(r.request_seq);
      waiting?.resolve(r);
    } else if (m.type === "event") {
      for (const listener of [...this.listeners]) listener(m as DebugProtocol.Event);
    } else if (m.type === "request") {
      void this.answerReverse(m as DebugProtocol.Request);
    }
  }

  private async answerReverse(request: DebugProtocol.Request): Promise<void> {
    const handler = this.reverse.get(request.command);
    const base = { seq: this.seq++, type: "response", request_seq: request.seq, command: request.command };
    try {
      if (handler === undefined) throw new Error(`The bridge does not support the reverse request ${request.command}`);
      const body = await handler(request.arguments);
      await this.send({ ...base, success: true, ...(body === undefined ? {} : { body }) });
    } catch (err) {
      await this.send({ ...base, success: false, message: err instanceof Error ? err.message : String(err) }).catch(() => {});
    }
  }

  private markClosed(reason: string): void {
    if (this.closedReason !== undefined) return;
    this.closedReason = reason;
    for (const [seq, waiting] of this.pending) {
      this.pending.delete(seq);
      waiting.reject(
        new DapRequestError(`The debug adapter went away before answering ${waiting.command} (${reason})`, {
          command: waiting.command,
          reason: "closed",
        }),
      );
    }
  }
}

function errorText(response: DebugProtocol.Response): string {
  const body = response.body as { error?: DebugProtocol.Message } | undefined;
  const format = body?.error?.format;
  if (format !== undefined) {
    const vars = body?.error?.variables ?? {};
    return format.replace(/\{(\w+)\}/g, (_, name: string) => vars[name] ?? `{${name}}`);
  }
  return response.message ?? `${response.command} failed`;
}
