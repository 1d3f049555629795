// The connection to the bridge: find it (discovery.ts), connect to /extension with the lock's token,
// say hello, answer the bridge's requests, send pushes; reconnect with backoff and full jitter when
// it goes away, at once when a lock file appears. Closed as superseded (another window took the
// bridge), it waits until this window gets the focus again, so two windows do not fight over it.
import { watch, type FSWatcher } from "node:fs";
import WebSocket from "ws";
import {
  EXTENSION_AUTH_HEADER,
  EXTENSION_FAILED,
  EXTENSION_PATH,
  EXTENSION_PROTOCOL_VERSION,
  ExtensionClose,
  HelloResult,
  type Folder,
} from "../../src/extension/protocol.ts";
import * as v from "valibot";
import { reconnectDelay } from "./backoff.ts";
import { findBridge, type BridgeTarget } from "./discovery.ts";
import { Failure } from "./failure.ts";

export type LinkState =
  | { kind: "searching" }
  | { kind: "connecting"; target: BridgeTarget }
  | { kind: "connected"; target: BridgeTarget; bridgeVersion: string; since: number }
  | { kind: "reconnecting"; inMs: number; why: string }
  | { kind: "superseded"; target: BridgeTarget }
  | { kind: "incompatible"; message: string };

export interface LinkOptions {
  extensionVersion: string;
  ideVersion: string;
  appName: string;
  folders(): Folder[];
  settings(): { port: number | undefined; lockDir: string };
  handle(method: string, params: unknown): Promise<unknown>;
  onState(state: LinkState): void;
  /** Connected: send the full state (diagnostics, selection, active file). */
  onConnected(): void;
  log(message: string): void;
}

const SLOW_RETRY_MS = 60_000;

export class BridgeLink {
  state: LinkState = { kind: "searching" };
  private socket: WebSocket | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private attempt = 0;
  private watcher: FSWatcher | undefined;
  private stopped = false;

  constructor(private readonly opts: LinkOptions) {}

  start(): void {
    this.watchLocks();
    void this.connect();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.watcher?.close();
    this.socket?.close(1000, "VS Code is closing");
  }

  /** Connect now (the status command, a focused window after being superseded). */
  reconnectNow(): void {
    if (this.state.kind === "connected" || this.state.kind === "connecting") return;
    this.attempt = 0;
    if (this.timer !== undefined) clearTimeout(this.timer);
    void this.connect();
  }

  notify(method: string, params: unknown): void {
    if (this.state.kind !== "connected" || this.socket?.readyState !== WebSocket.OPEN) return;
    this.socket.send(JSON.stringify({ jsonrpc: "2.0", method, params }));
  }

  get connected(): boolean {
    return this.state.kind === "connected";
  }

  private setState(state: LinkState): void {
    this.state = state;
    this.opts.onState(state);
  }

  private watchLocks(): void {
    try {
      this.watcher = watch(this.opts.settings().lockDir, () => {
        if (this.state.kind === "reconnecting" || this.state.kind === "searching") this.schedule(200, "a lock file changed");
      });
      this.watcher.on("error", () => undefined);
    } catch {
      // No lock directory yet: the backoff's retries find the first bridge.
    }
  }

  private schedule(ms: number, why: string): void {
    if (this.stopped) return;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.setState({ kind: "reconnecting", inMs: ms, why });
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.connect();
    }, ms);
  }

  private retry(why: string): void {
    this.schedule(reconnectDelay(this.attempt++), why);
  }

  private async connect(): Promise<void> {
    if (this.stopped || this.socket !== undefined) return;
    const settings = this.opts.settings();
    const windowFolders = this.opts.folders().map((f) => f.path);
    const target = await findBridge({
      lockDir: settings.lockDir,
      windowFolders,
      ...(settings.port === undefined ? {} : { port: settings.port }),
    });
    if (target === undefined) {
      this.retry(`no bridge serves ${windowFolders.join(", ") || "this window"}`);
      return;
    }
    if (this.socket !== undefined || this.stopped) return;
    this.setState({ kind: "connecting", target });
    const socket = new WebSocket(`ws://127.0.0.1:${target.port}${EXTENSION_PATH}`, {
      headers: { [EXTENSION_AUTH_HEADER]: target.token },
      perMessageDeflate: false,
      handshakeTimeout: 5_000,
    });
    this.socket = socket;
    let closeCode = 0;
    socket.on("open", () => this.hello(socket, target));
    socket.on("message", (data) => void this.onMessage(socket, target, data.toString()));
    socket.on("error", (err) => this.opts.log(`bridge socket error: ${err.message}`));
    socket.on("close", (code, reason) => {
      closeCode = code;
      if (this.socket === socket) this.socket = undefined;
      this.opts.log(`disconnected from the bridge on port ${target.port} (${code} ${reason.toString()})`);
      if (this.stopped) return;
      if (closeCode === ExtensionClose.superseded) this.setState({ kind: "superseded", target });
      else if (this.state.kind === "incompatible") this.schedule(SLOW_RETRY_MS, "incompatible bridge");
      else this.retry(`the bridge on port ${target.port} went away`);
    });
  }

  private hello(socket: WebSocket, target: BridgeTarget): void {
    socket.send(
      JSON.stringify({
        jsonrpc: "2.0",
        id: "hello",
        method: "extension/hello",
        params: {
          protocolVersion: EXTENSION_PROTOCOL_VERSION,
          extensionVersion: this.opts.extensionVersion,
          ideVersion: this.opts.ideVersion,
          appName: this.opts.appName,
          workspaceFolders: this.opts.folders(),
        },
      }),
    );
    this.opts.log(`connecting to the bridge on port ${target.port} (${target.lockPath})`);
  }

  private async onMessage(socket: WebSocket, target: BridgeTarget, text: string): Promise<void> {
    let message: { id?: number | string; method?: string; params?: unknown; result?: unknown; error?: { message: string } };
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    if (message.id === "hello") {
      if (message.error !== undefined) {
        this.setState({ kind: "incompatible", message: message.error.message });
        this.opts.log(message.error.message);
        return;
      }
      const hello = v.safeParse(HelloResult, message.result);
      this.attempt = 0;
      this.setState({ kind: "connected", target, bridgeVersion: hello.success ? hello.output.bridgeVersion : "?", since: Date.now() });
      this.opts.log(`connected to the bridge on port ${target.port}`);
      this.opts.onConnected();
      return;
    }
    if (message.method === undefined || message.id === undefined) return;
    const { id, method } = message;
    const started = Date.now();
    try {
      const result = await this.opts.handle(method, message.params);
      this.opts.log(`${method} answered in ${Date.now() - started} ms`);
      if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ jsonrpc: "2.0", id, result }));
    } catch (err) {
      this.opts.log(`${method} failed in ${Date.now() - started} ms: ${err instanceof Error ? err.message : String(err)}`);
      const error =
        err instanceof Failure
          ? { code: EXTENSION_FAILED, message: err.message, data: { code: err.code, suggestion: err.suggestion } }
          : { code: -32603, message: err instanceof Error ? err.message : String(err) };
      if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ jsonrpc: "2.0", id, error }));
    }
  }
}
