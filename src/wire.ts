// What the bridge and its clients (the stdio shim, Claude Code, other IDE clients) must agree on
// byte for byte: header names, the attach notice, the shim's goodbye, the message size limit and
// the WebSocket close codes. One module, so the two ends cannot drift apart. No imports: the shim
// loads this on every start.

/** The IDE token on the WebSocket upgrade (protocol.md A2). */
export const IDE_AUTH_HEADER = "x-claude-code-ide-authorization";
/** Sent by the stdio shim (and Claude Code) so a reconnect finds its session again. */
export const SESSION_ID_HEADER = "x-claude-code-session-id";

/**
 * Opt-in (any value) for the attach notice: the stdio shim sends it so it learns, before it relays
 * anything, whether the bridge still had its session. Claude Code never sends it, so it never sees
 * a message it did not ask for before `initialize`.
 */
export const ATTACH_NOTICE_HEADER = "x-claude-ide-bridge-attach-notice";
/**
 * The notice, the first frame on an opted-in socket: `{session, resumed, initialized,
 * protocolVersion?}`. `initialized: false` after a reconnect means the session is new (the bridge
 * restarted or the grace period ran out), so the client must initialize again.
 */
export const ATTACH_NOTICE_METHOD = "claude-ide-bridge/attached";
/**
 * Close reason (with CloseCode.normal) of an opted-in client that is exiting: its session ends at
 * once instead of waiting out the grace period, since a shim's session id dies with the shim.
 */
export const CLIENT_DONE_REASON = "client done";

/**
 * The largest JSON-RPC message, in bytes, on every transport: a WebSocket frame, an HTTP body, a
 * stdio line through the shim. Larger ones are refused where they enter, with a clear error.
 */
export const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

/** The WebSocket close codes in use (RFC 6455 section 7.4.1; 4000-4999 are private use). */
export const CloseCode = {
  normal: 1000,
  /** The server is shutting down. */
  goingAway: 1001,
  /** A frame above MAX_MESSAGE_BYTES. */
  messageTooBig: 1009,
  internalError: 1011,
  /** The client does not read fast enough (backpressure); it may reconnect. */
  tryAgainLater: 1013,
  /** Another socket of the same session took over. */
  superseded: 4000,
} as const;
export type CloseCode = (typeof CloseCode)[keyof typeof CloseCode];
