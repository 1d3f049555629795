// Sends JSON-RPC messages on a WebSocket with backpressure: above 1 MB buffered, responses wait
// in a queue and notifications are dropped (they are best effort); a client that does not
// read for 5 s is disconnected rather than letting memory grow without bound.
import type { JsonRpcMessage } from "../../mcp/protocol/jsonrpc.ts";
import { CloseCode } from "../../wire.ts";
import type { MessageSink } from "../../mcp/sessions/session.ts";

export const BACKPRESSURE_BYTES = 1024 * 1024;
export const DRAIN_TIMEOUT_MS = 5_000;
const DRAIN_POLL_MS = 20;
const OPEN = 1;

/** What the sender needs of a socket (hono's WSContext has it). */
export interface SenderSocket {
  readonly readyState: number;
  send(text: string): void;
  close(code?: number, reason?: string): void;
}

export class SafeSender implements MessageSink {
  droppedNotifications = 0;
  private readonly queue: string[] = [];
  private drainTimer: ReturnType<typeof setInterval> | undefined;
  private drainStarted = 0;

  constructor(
    private readonly ws: SenderSocket,
    /** Bytes queued on the socket but not yet sent (the runtime knows; src/ports/net.ts WebSocketInfo). */
    private readonly bufferedAmount: () => number,
  ) {}

  send(message: JsonRpcMessage): void {
    if (this.ws.readyState !== OPEN) return;
    const text = JSON.stringify(message);
    if (this.queue.length === 0 && this.bufferedAmount() < BACKPRESSURE_BYTES) {
      this.ws.send(text);
      return;
    }
    if (!("id" in message)) {
      this.droppedNotifications += 1;
      return;
    }
    this.queue.push(text);
    this.startDrain();
  }

  dispose(): void {
    if (this.drainTimer) clearInterval(this.drainTimer);
    this.drainTimer = undefined;
    this.queue.length = 0;
  }

  private startDrain(): void {
    if (this.drainTimer) return;
    this.drainStarted = Date.now();
    this.drainTimer = setInterval(() => this.drain(), DRAIN_POLL_MS);
  }

  private drain(): void {
    if (this.ws.readyState !== OPEN) {
      this.dispose();
      return;
    }
    while (this.queue.length > 0 && this.bufferedAmount() < BACKPRESSURE_BYTES) {
      this.ws.send(this.queue.shift() as string);
      this.drainStarted = Date.now();
    }
    if (this.queue.length === 0) {
      this.dispose();
      return;
    }
    if (Date.now() - this.drainStarted > DRAIN_TIMEOUT_MS) {
      this.dispose();
      this.ws.close(CloseCode.tryAgainLater, "client is not reading; closing to protect the bridge");
    }
  }
}
