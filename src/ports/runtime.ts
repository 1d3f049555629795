// The Runtime port: everything the core (src/) needs from Node, Bun or Deno, passed in explicitly.
// It belongs to the core (arrows run runtime/ -> src/ only): runtime/ implements it, and no file in
// src/ imports runtime/ (test/unit/house/one-rule.test.ts). Web-standard types only.
import type { UpgradeWebSocket } from "hono/ws";
import type { Fs } from "./fs.ts";
import type { LanguageServerLauncher } from "./lsp.ts";
import type { PluginImporter } from "./plugin-import.ts";
import type { ProcessTable } from "./processes.ts";
import type { FetchHandler, PinnedFetchInit, ServeOptions, Served, WebSocketInfo } from "./net.ts";
import type { Child, SpawnOptions } from "./spawn.ts";
import type { TcpConnector } from "./tcp.ts";
import type { WebSocketConnector } from "./websocket.ts";

export interface Runtime {
  readonly name: "node" | "bun" | "deno";
  serve(app: { fetch: FetchHandler }, opts: ServeOptions): Promise<Served>;
  /**
   * hono's per-runtime upgrade helper. The adapter enforces the frame limit (4 MB), answers
   * pings, echoes the `mcp` subprotocol and pings clients every 30 s.
   */
  readonly upgradeWebSocket: UpgradeWebSocket;
  readonly webSocketInfo: WebSocketInfo;
  readonly fs: Fs;
  spawn(cmd: string, args: string[], opts: SpawnOptions): Child;
  /** Language servers over stdio (src/lsp builds on it). */
  readonly languageServers: LanguageServerLauncher;
  which(cmd: string): Promise<string | undefined>;
  resolveHost(host: string): Promise<string[]>;
  /**
   * An HTTP(S) request to exactly `init.address`, which the caller has checked (SSRF defence,
   * src/security/network/ssrf.ts): no DNS, so a rebinding answer cannot move it. The URL's hostname is the
   * Host header and, for https, the TLS SNI and the certificate's hostname. Redirects are never
   * followed (a 3xx comes back with its Location); the body streams. Failures are RuntimeErrors.
   */
  fetchPinned(url: string, init: PinnedFetchInit): Promise<Response>;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly paths: {
    readonly home: string;
    readonly cwd: string;
    readonly tmp: string;
  };
  readonly pid: number;
  readonly platform: "linux" | "darwin" | "win32" | "other";
  processAlive(pid: number): boolean;
  /** Start time of a live process in ms since the epoch, when the OS tells (PID-reuse guard). */
  processStartTime(pid: number): Promise<number | undefined>;
  /** Runs `fn` once on SIGINT/SIGTERM or an explicit shutdown, before the process exits. */
  onShutdown(fn: () => Promise<void>): void;
  /** Imports --plugin entrypoints; a Runtime without it (a test's) refuses --plugin. */
  readonly plugins?: PluginImporter;
  /** TCP client connections (debug adapters that listen on a port); a Runtime without it cannot reach them. */
  readonly tcp?: TcpConnector;
  /** WebSocket client connections (the Node inspector); a Runtime without it cannot debug Node programs. */
  readonly webSocketClient?: WebSocketConnector;
  /** Other processes of the machine (Linux /proc), for the debugger's attach by process id; absent elsewhere. */
  readonly processes?: ProcessTable;
}
