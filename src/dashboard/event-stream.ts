// /stream: the activity log live, as Server-Sent Events, to at most 20 subscribers. Each gets a
// bounded queue (64 events): a subscriber that does not read (a stalled tab) is not buffered for
// without end; events are skipped for it and, once it reads again, it gets `event: resync` to
// fetch the whole picture again. `Last-Event-ID` (the seq) replays what the ring still keeps.
import type { ActivityEntry } from "../capabilities/activity/activity-entry.ts";
import type { ActivityLog } from "../capabilities/activity/activity-log.ts";

export const MAX_SUBSCRIBERS = 20;
const QUEUE_EVENTS = 64;
const KEEPALIVE_MS = 20_000;

interface Subscriber {
  controller: ReadableStreamDefaultController<Uint8Array>;
  skipped: number;
  close(): void;
}

export class EventStream {
  private readonly subscribers = new Set<Subscriber>();
  private readonly encoder = new TextEncoder();
  private readonly unsubscribe: () => void;

  constructor(private readonly log: ActivityLog) {
    this.unsubscribe = log.subscribe((entry) => {
      for (const s of this.subscribers) this.send(s, entry);
    });
  }

  get size(): number {
    return this.subscribers.size;
  }

  /** The SSE response, or a 503 when 20 subscribers are already there. */
  open(lastEventId: string | undefined): Response {
    if (this.subscribers.size >= MAX_SUBSCRIBERS) {
      return Response.json(
        { error: `at most ${MAX_SUBSCRIBERS} live views at once; close another dashboard tab` },
        { status: 503, headers: { "retry-after": "10" } },
      );
    }
    let subscriber: Subscriber | undefined;
    const stream = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          let timer: ReturnType<typeof setInterval> | undefined;
          const s: Subscriber = {
            controller,
            skipped: 0,
            close: () => {
              clearInterval(timer);
              this.subscribers.delete(s);
            },
          };
          subscriber = s;
          this.subscribers.add(s);
          this.write(s, "retry: 3000\n: live\n\n");
          const after = Number(lastEventId);
          if (Number.isInteger(after) && after > 0) for (const entry of this.log.entries(after)) this.send(s, entry);
          timer = setInterval(() => this.write(s, ": keepalive\n\n"), KEEPALIVE_MS);
        },
        cancel: () => subscriber?.close(),
      },
      { highWaterMark: QUEUE_EVENTS },
    );
    return new Response(stream, {
      headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-store", "x-accel-buffering": "no" },
    });
  }

  /** The bridge stops: every stream ends. */
  close(): void {
    this.unsubscribe();
    for (const s of [...this.subscribers]) {
      s.close();
      try {
        s.controller.close();
      } catch {
        // Already closed by its reader.
      }
    }
  }

  private send(s: Subscriber, entry: ActivityEntry): void {
    if ((s.controller.desiredSize ?? 0) <= 0) {
      s.skipped += 1;
      return;
    }
    if (s.skipped > 0) {
      this.write(s, `event: resync\ndata: {"skipped":${s.skipped}}\n\n`);
      s.skipped = 0;
    }
    this.write(s, `id: ${entry.seq}\nevent: activity\ndata: ${JSON.stringify(entry)}\n\n`);
  }

  private write(s: Subscriber, text: string): void {
    try {
      s.controller.enqueue(this.encoder.encode(text));
    } catch {
      s.close();
    }
  }
}
