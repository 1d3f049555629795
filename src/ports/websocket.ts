// The WebSocket client port: one text-message connection to a ws:// URL. The Node inspector (the
// Chrome DevTools Protocol) is reached through it; Node 20 has no global WebSocket, so each runtime
// gives its own (ws on Node, the global one on Bun and Deno).
export interface WebSocketClient {
  send(text: string): void;
  /** Closes the connection; `onClose` is called once, whoever closed it. */
  close(): void;
}

export interface WebSocketHandlers {
  onMessage(text: string): void;
  onClose(reason: string): void;
}

export interface WebSocketConnector {
  /** Opens `url`; rejects (a RuntimeError) when refused or not open within `timeoutMs`. */
  connect(url: string, handlers: WebSocketHandlers, opts?: { timeoutMs?: number }): Promise<WebSocketClient>;
}
