// The network port: serving HTTP and WebSockets, and requests pinned to an address the caller checked.
import type { WSContext } from "hono/ws";

export type FetchHandler = (request: Request, env?: unknown) => Response | Promise<Response>;

export interface Served {
  /** The port actually bound (meaningful when 0 was asked for). */
  readonly port: number;
  readonly hostname: string;
  /** Stops accepting, closes open sockets, resolves when the listener is gone. */
  close(): Promise<void>;
}

export interface ServeOptions {
  hostname: string;
  port: number;
  /** Serve HTTPS (and wss) with this certificate chain and key, both PEM text; plain HTTP without. */
  tls?: { cert: string; key: string };
}

/** fetchPinned's request: everything but where to connect comes from the URL. */
export interface PinnedFetchInit {
  /** The IPv4 or IPv6 literal to connect to: the address the caller resolved and checked. */
  address: string;
  method?: string;
  /** A Host given here is replaced by the URL's. */
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** Aborting fails the request, or the body being read, with ECANCELED. */
  signal?: AbortSignal;
  /** For the whole exchange, the body included; past it the request or the body fails with ETIMEDOUT. */
  timeoutMs?: number;
  /** PEM certificates trusted for https instead of the system's (a private CA, tests). */
  ca?: string;
}

/** What the runtime knows about an upgraded socket that hono's WSContext does not expose. */
export interface WebSocketInfo {
  /** Bytes queued but not yet sent; used for backpressure. */
  bufferedAmount(ws: WSContext): number;
}
