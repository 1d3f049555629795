// One logical SSE stream of a session (a POST's response stream or the standalone GET stream).
// Events are kept with ids that name the stream, so a client that lost the HTTP connection can
// GET with Last-Event-ID and receive what it missed (MCP "Resumability"). What is kept is bounded:
// a stream delivered whole to a connected client keeps nothing (it will never be replayed), and
// the owning session caps the characters kept across its streams (see HttpSession), dropping the
// oldest events first. A replay sends what is still kept; one whose response is gone is refused.
// Events are kept and handed to connections as text, encoded only where a live stream carries
// them: a held answer goes out as the string it is (src/transports/http/held-sse.ts).
import type { JsonRpcMessage } from "../../mcp/protocol/jsonrpc.ts";

/** Per channel, besides the session's character bound: progress notifications are many and small. */
const MAX_KEPT_EVENTS = 100;
const encoder = new TextEncoder();

interface KeptEvent {
  seq: number;
  /** The event exactly as written to the wire; the same text serves a live write and a replay. */
  text: string;
  /** Session-wide order of keeping, so the session can find its oldest event across channels. */
  stamp: number;
}

/** What a channel tells the session that owns it. */
export interface ChannelOwner {
  /** A number larger than any given before (orders events across the session's channels). */
  stamp(): number;
  /** An event was kept: the owner enforces its byte bound. */
  kept(channel: SseChannel): void;
  /** The channel's stream reached a connected client whole: nothing is left to replay. */
  delivered(channel: SseChannel): void;
}

/** One HTTP response body that carries a channel's events. */
export interface SseConnection {
  readonly body: ReadableStream<Uint8Array>;
  /** One or more whole SSE events (or a comment) as text. */
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
  private keptTotal = 0;
  private connection: SseConnection | undefined;
  /** Set once the channel's last event (the response of its request) is written. */
  finished = false;

  constructor(
    readonly streamId: string,
    private readonly owner: ChannelOwner,
  ) {}

  get connected(): boolean {
    return this.connection !== undefined;
  }

  /** Characters of the events kept for replay. */
  get keptChars(): number {
    return this.keptTotal;
  }

  /** The stamp of the oldest kept event, if any. */
  get oldestStamp(): number | undefined {
    return this.kept[0]?.stamp;
  }

  /**
   * False when the stream has ended and its last event (the response) was dropped before a client
   * that has seen only up to `afterSeq` got it: a replay could never complete the request.
   */
  canResume(afterSeq: number): boolean {
    const last = this.seq - 1;
    return !this.finished || afterSeq >= last || this.kept.at(-1)?.seq === last;
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
    let written = true;
    for (const event of this.kept) if (event.seq > afterSeq) written = connection.write(event.text) && written;
    if (!this.finished) return;
    if (written) this.release();
    this.closeConnection();
  }

  detach(connection: SseConnection): void {
    if (this.connection === connection) this.connection = undefined;
  }

  /**
   * The last event has been sent: end the HTTP body. If it went to a live connection the client
   * has the whole stream and nothing is kept; otherwise the events wait for a Last-Event-ID replay.
   */
  finish(): void {
    this.finished = true;
    if (this.connection !== undefined) this.release();
    this.closeConnection();
  }

  closeConnection(): void {
    this.connection?.close();
    this.connection = undefined;
  }

  /** Drops the oldest kept event (for the session's bound); returns the characters freed. */
  dropOldest(): number {
    const event = this.kept.shift();
    if (!event) return 0;
    this.keptTotal -= event.text.length;
    return event.text.length;
  }

  private release(): void {
    this.kept.length = 0;
    this.keptTotal = 0;
    this.owner.delivered(this);
  }

  private push(data: string): void {
    const seq = this.seq++;
    const event = { seq, text: format(this.streamId, seq, data), stamp: this.owner.stamp() };
    if (this.connection && !this.connection.write(event.text)) this.connection = undefined;
    this.kept.push(event);
    this.keptTotal += event.text.length;
    if (this.kept.length > MAX_KEPT_EVENTS) this.dropOldest();
    this.owner.kept(this);
  }
}

function format(streamId: string, seq: number, data: string): string {
  return `id: ${streamId}_${seq}\nevent: message\ndata: ${data}\n\n`;
}

/** Splits a Last-Event-ID into the stream id and sequence number it names. */
export function parseEventId(eventId: string): { streamId: string; seq: number } | undefined {
  const match = /^([A-Za-z0-9-]{1,64})_(\d{1,9})$/.exec(eventId.trim());
  return match ? { streamId: match[1] as string, seq: Number(match[2]) } : undefined;
}
