// --verbose: every request the bridge refuses, with its status and why, so "Claude Code
// says Failed to connect" can be traced. One middleware in front of everything (src/app.ts), so
// the WebSocket upgrade, /health and Streamable HTTP are covered alike and no transport has to
// remember to log. The "why" is the refusal's own message, which names no token; the request's
// query and body are never logged, nor any header but the (non-secret) session ids.
import type { MiddlewareHandler } from "hono";
import type { Logger } from "../log.ts";
import { SESSION_ID_HEADER } from "../wire.ts";

/** Statuses that mean "refused", not "failed": auth, Host/Origin, unknown session, size, rate, shape, room. */
const REFUSED = new Set([400, 401, 403, 404, 405, 406, 409, 413, 415, 429, 503]);
const MAX_REASON_CHARS = 300;

export function logRefusals(logger: Logger): MiddlewareHandler {
  return async (c, next) => {
    await next();
    if (logger.debugEnabled === false || !REFUSED.has(c.res.status)) return;
    const fields: Record<string, unknown> = { status: c.res.status, method: c.req.method, path: c.req.path, why: await reasonOf(c.res) };
    const session = c.req.header("mcp-session-id") ?? c.req.header(SESSION_ID_HEADER);
    if (session !== undefined) fields.session = session.slice(0, 128);
    if ((c.req.header("upgrade") ?? "").toLowerCase() === "websocket") fields.websocket = true;
    logger.debug("refused a request", fields);
  };
}

/** The refusal's message: a JSON-RPC error's, a JSON body's `error`, or the text itself. */
async function reasonOf(response: Response): Promise<string> {
  let text: string;
  try {
    text = (await response.clone().text()).slice(0, 4096);
  } catch {
    return "(no body)";
  }
  try {
    const body: unknown = JSON.parse(text);
    if (typeof body === "object" && body !== null && "error" in body) {
      const error = body.error;
      if (typeof error === "string") return error.slice(0, MAX_REASON_CHARS);
      if (typeof error === "object" && error !== null && "message" in error && typeof error.message === "string")
        return error.message.slice(0, MAX_REASON_CHARS);
    }
  } catch {
    // Plain text.
  }
  return text.trim().slice(0, MAX_REASON_CHARS) || "(no body)";
}
