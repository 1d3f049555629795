// The shapes around ExtensionClient: the socket it is given, what it tells its listeners, and what
// it reports of the connected extension. The client itself is extension-client.ts.
import type { BreakerState } from "./circuit-breaker.ts";
import type { BridgeMethod, PushMethod } from "./protocol.ts";

export interface ExtensionSocket {
  send(text: string): void;
  close(code: number, reason: string): void;
}

/** What the transport feeds back: the socket's frames and its end. */
export interface ExtensionConnection {
  receive(text: string): void;
  closed(): void;
}

export type ExtensionEvent = { type: "connected" } | { type: "disconnected" } | { type: "push"; method: PushMethod; params: unknown };

export interface ExtensionInfo {
  extensionVersion: string;
  ideVersion: string;
  appName: string;
  protocolVersion: string;
  connectedAt: number;
}

export interface ExtensionStatus {
  state: "disconnected" | "handshaking" | "connected" | "not_answering";
  breaker: BreakerState;
  /** When the breaker is open: ms until it lets a probe through. */
  retryInMs?: number;
  pending: number;
  info?: ExtensionInfo;
}

export interface ClientOptions {
  bridgeVersion: string;
  workspace: string;
  log(level: "info" | "warn", message: string, fields?: Record<string, unknown>): void;
  now?: () => number;
  random?: () => number;
  helloTimeoutMs?: number;
}

export interface Link {
  generation: number;
  socket: ExtensionSocket;
  info: ExtensionInfo | undefined;
  helloTimer: ReturnType<typeof setTimeout> | undefined;
}

export interface Pending {
  generation: number;
  method: BridgeMethod;
  probe: boolean;
  timer: ReturnType<typeof setTimeout>;
  resolve(result: unknown): void;
  reject(err: Error): void;
}
