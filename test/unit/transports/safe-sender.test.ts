import { afterEach, describe, expect, it, vi } from "vitest";
import { BACKPRESSURE_BYTES, DRAIN_TIMEOUT_MS, SafeSender, type SenderSocket } from "../../../src/transports/ws/safe-sender.ts";

function fakeSocket() {
  const socket = { buffered: 0, sent: [] as string[], closed: undefined as number | undefined, readyState: 1 };
  const ws: SenderSocket = {
    get readyState() {
      return socket.readyState;
    },
    send: (text: string) => socket.sent.push(text),
    close: (code: number) => {
      socket.closed = code;
      socket.readyState = 3;
    },
  };
  return { socket, sender: new SafeSender(ws, () => socket.buffered) };
}

const response = (id: number) => ({ jsonrpc: "2.0" as const, id, result: {} });
const notification = { jsonrpc: "2.0" as const, method: "notifications/progress", params: {} };

afterEach(() => {
  vi.useRealTimers();
});

describe("SafeSender backpressure", () => {
  it("sends at once below the threshold", () => {
    const { socket, sender } = fakeSocket();
    sender.send(response(1));
    sender.send(notification);
    expect(socket.sent).toHaveLength(2);
  });

  it("queues responses and drops notifications while over 1 MB, then drains in order", () => {
    vi.useFakeTimers();
    const { socket, sender } = fakeSocket();
    socket.buffered = BACKPRESSURE_BYTES;
    sender.send(response(1));
    sender.send(notification);
    sender.send(response(2));
    expect(socket.sent).toHaveLength(0);
    expect(sender.droppedNotifications).toBe(1);
    socket.buffered = 0;
    vi.advanceTimersByTime(50);
    expect(socket.sent.map((t) => JSON.parse(t).id)).toEqual([1, 2]);
    expect(socket.closed).toBeUndefined();
  });

  it("closes a client that does not read for 5 s", () => {
    vi.useFakeTimers();
    const { socket, sender } = fakeSocket();
    socket.buffered = BACKPRESSURE_BYTES * 2;
    sender.send(response(1));
    vi.advanceTimersByTime(DRAIN_TIMEOUT_MS + 100);
    expect(socket.closed).toBe(1013);
  });

  it("sends nothing on a closed socket", () => {
    const { socket, sender } = fakeSocket();
    socket.readyState = 3;
    sender.send(response(1));
    expect(socket.sent).toHaveLength(0);
  });
});
