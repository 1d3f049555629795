// A POST's SSE response whose head waits, briefly, for its events. Most tools/call answers are
// ready within a few milliseconds and send nothing before the response: a stream opened at once
// costs three writes to the socket (the head flushed alone, a chunk, the chunked end), and each is
// a round through the kernel and a wake-up of the client. Held, the same bytes go in one response
// with a length: the priming event and the answer together. Once an event other than the answer
// is written (a progress or log notification), or HOLD_MS pass, the stream opens with what was
// held and carries the rest live, so a long call's client hears from it as before; the events,
// their ids and what the channel keeps for a Last-Event-ID replay are the same either way. Held
// events stay the strings they were written as, and a whole answer is their join: the runtime
// adapter writes a string body as it is (no encoding into a buffer first, no copy of one).
import { openSseConnection, type SseConnection } from "./sse-channel.ts";

/** Longest a response's head waits for its events; the answer to most calls comes well before. */
export const HOLD_MS = 50;

export interface HeldSse {
  /** Given to the channel in place of a live connection. */
  readonly connection: SseConnection;
  /**
   * From now on an event opens the stream (the ones written before, the priming event, are held
   * with the answer). Resolves with the body: the whole stream when it ended in time, else a live one.
   */
  armed(): Promise<string | ReadableStream<Uint8Array>>;
}

export function holdSse(onGone: () => void): HeldSse {
  const held: string[] = [];
  let live: SseConnection | undefined;
  let closed = false;
  let armed = false;
  let settle: ((body: string | ReadableStream<Uint8Array>) => void) | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const decide = () => {
    if (settle === undefined) return;
    const answer = settle;
    settle = undefined;
    clearTimeout(timer);
    if (closed) return answer(held.join(""));
    live = openSseConnection(onGone);
    for (const chunk of held) live.write(chunk);
    held.length = 0;
    answer(live.body);
  };

  const connection: SseConnection = {
    get body(): ReadableStream<Uint8Array> {
      throw new Error("a held SSE connection has no body of its own; use armed()");
    },
    write(chunk) {
      if (live !== undefined) return live.write(chunk);
      if (closed) return false;
      held.push(chunk);
      // The answer is written and the stream closed in one synchronous step: wait for that step
      // to end before taking this event for a notification.
      if (armed) queueMicrotask(decide);
      return true;
    },
    close() {
      if (live !== undefined) return live.close();
      closed = true;
      decide();
    },
  };

  return {
    connection,
    armed() {
      armed = true;
      return new Promise((resolve) => {
        settle = resolve;
        if (closed) return decide();
        timer = setTimeout(decide, HOLD_MS);
      });
    },
  };
}
