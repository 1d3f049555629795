// The TCP port: a client connection as a pair of web byte streams. Debug adapters that only listen on
// a socket (delve's `dlv dap`, a program's own debug server for an attach) are reached through it.
export interface TcpSocket {
  readonly readable: ReadableStream<Uint8Array>;
  readonly writable: WritableStream<Uint8Array>;
  /** Ends the connection; the readable ends with it. */
  close(): void;
}

export interface TcpConnector {
  /** Connects to `host:port`; rejects (a RuntimeError) when refused or not connected within `timeoutMs`. */
  connect(host: string, port: number, opts?: { timeoutMs?: number }): Promise<TcpSocket>;
}
