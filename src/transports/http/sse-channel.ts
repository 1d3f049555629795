// One logical SSE stream of a session (a POST's response stream or the standalone GET stream).
// Events are kept (bounded) with ids that name the stream, so a client that lost the HTTP
// connection can GET with Last-Event-ID and receive what it missed (MCP "Resumability").
import type { JsonRpcMessage } from "../../mcp/jsonrpc.ts";

const MAX_KEPT_EVENTS = 100;
const encoder = new TextEncoder();

interface KeptEvent {
  seq: number;
  data: string;
}

/** One HTTP response body that carries a channel's events. */
export interface SseConnection {
  readonly body: ReadableStream<Uint8Array>;
  write(chunk: string): boolean;
  close(): void;
}

export function openSseConnection(onGone: () => void): SseConnection {
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  let open = true;
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
    cancel() {
      // The client went away: disconnect is not cancellation (MCP), so only detach.
      open = false;
      onGone();
    },
  });
  return {
    body,
    write(chunk) {
      if (!open || !controller) return false;
      try {
        controller.enqueue(encoder.encode(chunk));
        return true;
      } catch {
        open = false;
        return false;
      }
    },
    close() {
      if (!open) return;
      open = false;
      try {
        controller?.close();
      } catch {
        // already closed by the peer
      }
    },
  };
}

export class SseChannel {
  private seq = 0;
  private readonly kept: KeptEvent[] = [];
  private connection: SseConnection | undefined;
  /** Set once the channel's last event (the response of its request) is written. */
  finished = false;

  constructor(readonly streamId: string) {}

  get connected(): boolean {
    return this.connection !== undefined;
  }

  /** Sends the first, empty event that gives the client a resumption point (2025-11-25). */
  prime(): void {
    this.push("");
  }

  send(message: JsonRpcMessage): void {
    this.push(JSON.stringify(message));
  }

  comment(text: string): void {
    this.connection?.write(`: ${text}\n\n`);
  }

  /** Replays events after `afterSeq` on a new connection, then delivers live events to it. */
  attach(connection: SseConnection, afterSeq = -1): void {
    this.connection?.close();
    this.connection = connection;
    for (const event of this.kept) if (event.seq > afterSeq) connection.write(format(this.streamId, event));
    if (this.finished) this.closeConnection();
  }

  detach(connection: SseConnection): void {
    if (this.connection === connection) this.connection = undefined;
  }

  /** The last event has been sent: end the HTTP body (the channel stays replayable). */
  finish(): void {
    this.finished = true;
    this.closeConnection();
  }

  closeConnection(): void {
    this.connection?.close();
    this.connection = undefined;
  }

  private push(data: string): void {
    const event = { seq: this.seq++, data };
    this.kept.push(event);
    if (this.kept.length > MAX_KEPT_EVENTS) this.kept.shift();
    if (this.connection && !this.connection.write(format(this.streamId, event))) this.connection = undefined;
  }
}

function format(streamId: string, event: KeptEvent): string {
  return `id: ${streamId}_${event.seq}\nevent: message\ndata: ${event.data}\n\n`;
}

/** Splits a Last-Event-ID into the stream id and sequence number it names. */
export function parseEventId(eventId: string): { streamId: string; seq: number } | undefined {
  const match = /^([A-Za-z0-9-]{1,64})_(\d{1,9})$/.exec(eventId.trim());
  return match ? { streamId: match[1] as string, seq: Number(match[2]) } : undefined;
}
