import type { JsonRpcMessage } from "../protocol/jsonrpc.ts";

/** Where a session's outgoing messages go: a WebSocket, an SSE stream, stdout. */
export interface MessageSink {
  send(message: JsonRpcMessage): void;
}
