// The WebSocket policy every runtime adapter enforces (src/ports/runtime.ts, Runtime.upgradeWebSocket):
// 4 MB frames, the `mcp` subprotocol preferred, a heartbeat, and a 1001 close on shutdown.
// Bun and Deno share these helpers; runtime/node/serve.ts applies the same rules through `ws`.
import { MAX_MESSAGE_BYTES } from "../../src/wire.ts";

export const MAX_FRAME_BYTES = MAX_MESSAGE_BYTES;
/** After a 1001 close we give clients this long to answer before cutting the connection. */
export const CLOSE_WAIT_MS = 1_000;
/** How often the close waits look again for sockets still open. */
const CLOSE_POLL_MS = 10;
export const DEFAULT_PING_INTERVAL_MS = 30_000;

/**
 * Claude Code offers `Sec-WebSocket-Protocol: mcp` and fails a handshake that gets none back
 * (protocol.md A2). Bun and hono/deno would echo whichever protocol came first, so say `mcp`
 * explicitly when it is offered; otherwise leave the runtime's default alone.
 */
export function preferredSubprotocol(offered: string | null | undefined): "mcp" | undefined {
  if (offered === null || offered === undefined) return undefined;
  return offered.split(",").some((p) => p.trim() === "mcp") ? "mcp" : undefined;
}

/**
 * Bun and Deno ping a socket after half its idle timeout without traffic and drop it when the
 * whole timeout passes without an answer, so a ping every `pingIntervalMs` means an idle timeout
 * of twice that (in seconds, as both take it). A dead peer goes after 2 periods, as on Node.
 */
export function idleTimeoutSeconds(pingIntervalMs: number): number {
  return Math.max(1, Math.round((2 * pingIntervalMs) / 1000));
}

/** Size in bytes of a received frame, without encoding strings that cannot be too big. */
export function frameBytes(data: string | Blob | ArrayBufferLike | ArrayBufferView): number {
  if (typeof data === "string") {
    // UTF-8 takes at most 3 bytes per UTF-16 code unit.
    return data.length * 3 <= MAX_FRAME_BYTES ? data.length : new TextEncoder().encode(data).byteLength;
  }
  if (data instanceof Blob) return data.size;
  return data.byteLength;
}

/** Closes each socket with 1001 and waits (at most CLOSE_WAIT_MS) for all of them to be gone. */
export async function closeWithGoingAway<S>(sockets: Set<S>, close: (socket: S) => void): Promise<void> {
  for (const socket of sockets) {
    try {
      close(socket);
    } catch {
      // Already closing: nothing to say to it.
    }
  }
  const deadline = Date.now() + CLOSE_WAIT_MS;
  while (sockets.size > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, CLOSE_POLL_MS));
}
