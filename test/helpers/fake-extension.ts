// An in-process stand-in for the VS Code extension's end of the extension link: it says hello to a
// real ExtensionClient through the same ExtensionSocket interface the WebSocket transport uses, and
// answers the bridge's requests with the handlers a test gives (a handler that never settles is a
// hung VS Code). Only what this machine cannot run in a unit test is faked: VS Code itself.
import { ExtensionClient, type ExtensionConnection } from "../../src/extension/extension-client.ts";
import {
  EXTENSION_PROTOCOL_VERSION,
  type BridgeMethod,
  type ParamsOf,
  type PushMethod,
  type PushOf,
  type ResultOf,
} from "../../src/extension/protocol.ts";

type Handler<M extends BridgeMethod> = (params: ParamsOf<M>) => ResultOf<M> | Promise<ResultOf<M>> | { never: true };
export type FakeHandlers = { [M in BridgeMethod]?: Handler<M> };

export interface Received {
  id?: number;
  method: string;
  params?: unknown;
}

export class FakeExtension {
  readonly received: Received[] = [];
  readonly closes: { code: number; reason: string }[] = [];
  helloAnswer: unknown;
  private connection: ExtensionConnection | undefined;

  constructor(
    readonly client: ExtensionClient,
    private readonly handlers: FakeHandlers = {},
  ) {}

  /** Opens a socket and says hello (synchronously answered by the client). */
  connect(opts: { protocolVersion?: string; folders?: { name: string; uri: string; path: string }[] } = {}): this {
    this.connection = this.client.attach({
      send: (text) => this.onSend(text),
      close: (code, reason) => {
        this.closes.push({ code, reason });
      },
    });
    this.connection.receive(
      JSON.stringify({
        jsonrpc: "2.0",
        id: "hello",
        method: "extension/hello",
        params: {
          protocolVersion: opts.protocolVersion ?? EXTENSION_PROTOCOL_VERSION,
          extensionVersion: "0.1.0",
          ideVersion: "1.100.3",
          appName: "Fake Code",
          workspaceFolders: opts.folders ?? [],
        },
      }),
    );
    return this;
  }

  push<M extends PushMethod>(method: M, params: PushOf<M>): void {
    this.connection?.receive(JSON.stringify({ jsonrpc: "2.0", method, params }));
  }

  /** Sends raw text as the extension (malformed frames, stale answers). */
  raw(text: string): void {
    this.connection?.receive(text);
  }

  /** The socket closed (the extension host went away). */
  disconnect(): void {
    this.connection?.closed();
  }

  requests(method?: string): Received[] {
    return this.received.filter((r) => r.id !== undefined && (method === undefined || r.method === method));
  }

  private onSend(text: string): void {
    const message = JSON.parse(text) as { id?: number | string; method?: string; params?: unknown; result?: unknown };
    if (message.id === "hello") {
      this.helloAnswer = message;
      return;
    }
    if (message.method === undefined) return;
    this.received.push({ id: typeof message.id === "number" ? message.id : undefined, method: message.method, params: message.params });
    if (typeof message.id !== "number") return;
    const id = message.id;
    const handler = this.handlers[message.method as BridgeMethod] as ((p: unknown) => unknown) | undefined;
    const connection = this.connection;
    if (handler === undefined) {
      queueMicrotask(() =>
        connection?.receive(
          JSON.stringify({ jsonrpc: "2.0", id, error: { code: -32601, message: `fake: no handler for ${message.method}` } }),
        ),
      );
      return;
    }
    Promise.resolve()
      .then(() => handler(message.params))
      .then(
        (result) => {
          if (typeof result === "object" && result !== null && "never" in result) return;
          connection?.receive(JSON.stringify({ jsonrpc: "2.0", id, result }));
        },
        (err: unknown) => connection?.receive(JSON.stringify({ jsonrpc: "2.0", id, error: { code: -32000, message: String(err) } })),
      );
  }
}

export function extensionClient(opts: { now?: () => number; random?: () => number; helloTimeoutMs?: number } = {}): ExtensionClient {
  return new ExtensionClient({ bridgeVersion: "0.1.0-test", workspace: "/ws", log: () => undefined, ...opts });
}

/** A client with a fake extension connected to it. */
export function connectedExtension(handlers: FakeHandlers = {}): FakeExtension {
  return new FakeExtension(extensionClient(), handlers).connect();
}
