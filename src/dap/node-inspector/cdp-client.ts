// The Chrome DevTools Protocol as the Node inspector speaks it: JSON-RPC-like commands with ids over
// one WebSocket, answered by id, and events by method name. Only what the Node debugger needs.
import type { WebSocketClient, WebSocketConnector } from "../../ports/websocket.ts";

const COMMAND_TIMEOUT_MS = 30_000;

type EventHandler = (params: Record<string, unknown>) => void;

export class CdpClient {
  private nextId = 1;
  private readonly pending = new Map<number, { method: string; resolve(r: unknown): void; reject(e: Error): void }>();
  private readonly handlers = new Map<string, EventHandler>();
  private socket: WebSocketClient | undefined;
  private closedWhy: string | undefined;
  private markClosed: (why: string) => void = () => {};
  /** Resolves with why, once the inspector's socket closed. */
  readonly closed = new Promise<string>((resolve) => {
    this.markClosed = resolve;
  });

  static async connect(connector: WebSocketConnector, url: string, opts: { timeoutMs: number }): Promise<CdpClient> {
    const client = new CdpClient();
    client.socket = await connector.connect(
      url,
      { onMessage: (text) => client.receive(text), onClose: (why) => client.close(why) },
      { timeoutMs: opts.timeoutMs },
    );
    return client;
  }

  /** Sends a command; rejects with the inspector's error message, or when no answer comes. */
  send<T = Record<string, unknown>>(method: string, params: Record<string, unknown> = {}): Promise<T> {
    const socket = this.socket;
    if (socket === undefined || this.closedWhy !== undefined) {
      return Promise.reject(new Error(`The Node inspector connection is closed (${this.closedWhy ?? "not open"})`));
    }
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`The Node inspector did not answer ${method} within ${COMMAND_TIMEOUT_MS} ms`));
      }, COMMAND_TIMEOUT_MS);
      this.pending.set(id, {
        method,
        resolve: (r) => {
          clearTimeout(timer);
          resolve(r as T);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
      socket.send(JSON.stringify({ id, method, params }));
    });
  }

  /** One handler per event method (the adapter is the only listener). */
  on(method: string, handler: EventHandler): void {
    this.handlers.set(method, handler);
  }

  close(why = "closed by the bridge"): void {
    if (this.closedWhy !== undefined) return;
    this.closedWhy = why;
    this.socket?.close();
    for (const [id, waiting] of this.pending) {
      this.pending.delete(id);
      waiting.reject(new Error(`The Node inspector went away before answering ${waiting.method} (${why})`));
    }
    this.markClosed(why);
  }

  private receive(text: string): void {
    let message: { id?: number; method?: string; params?: Record<string, unknown>; result?: unknown; error?: { message?: string } };
    try {
      message = JSON.parse(text) as typeof message;
    } catch {
      return;
    }
    if (typeof message.id === "number") {
      const waiting = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (message.error !== undefined) waiting?.reject(new Error(message.error.message ?? `${waiting.method} failed`));
      else waiting?.resolve(message.result ?? {});
    } else if (typeof message.method === "string") {
      this.handlers.get(message.method)?.(message.params ?? {});
    }
  }
}
