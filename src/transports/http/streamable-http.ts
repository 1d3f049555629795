// MCP Streamable HTTP at /mcp, both eras on one endpoint. Legacy (2025-11-25 and earlier): POST
// carries one message, answered with JSON or an SSE stream; GET opens the session's standalone
// SSE stream or resumes one by Last-Event-ID; DELETE ends the session. Modern (2026-07-28): each
// POST stands alone, with no session (src/transports/http/stateless-endpoint.ts). The era of a
// POST is decided once, by src/mcp/protocol/era.ts. Auth and Host/Origin checks happen before
// this (src/app.ts).
import { RpcCode } from "../../errors.ts";
import { decodeMessage } from "../../mcp/protocol/decode.ts";
import { eraOf } from "../../mcp/protocol/era.ts";
import type { Incoming } from "../../mcp/protocol/jsonrpc.ts";
import { rateLimitedError } from "../../mcp/limits/rate-budget.ts";
import type { McpSession } from "../../mcp/sessions/session.ts";
import { checkProtocolHeader, primesSseStreams } from "../../mcp/protocol/versions.ts";
import { MAX_MESSAGE_BYTES } from "../../wire.ts";
import type { Logger } from "../../log.ts";
import { holdSse } from "./held-sse.ts";
import { HttpSession } from "./http-session.ts";
import { accepts, BodyTooLarge, isJsonContentType, readBodyLimited, rpcErrorResponse } from "./responses.ts";
import { SessionPool } from "./session-pool.ts";
import { openSseConnection, parseEventId, type SseChannel } from "./sse-channel.ts";
import { StatelessEndpoint } from "./stateless-endpoint.ts";

const MAX_BODY_BYTES = MAX_MESSAGE_BYTES;
const KEEPALIVE_MS = 25_000;
const SWEEP_MS = 60_000;
const SESSION_HEADER = "mcp-session-id";
const SSE_HEADERS = { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" };

interface StreamableHttpOptions {
  createSession(): McpSession;
  /**
   * The session every modern (stateless) request is handled by; it should be made with
   * `stateless: true` (src/mcp/sessions/session.ts). Default: createSession().
   */
  createStatelessSession?(): McpSession;
  /**
   * Charges a request that names no known session (an initialize) to the credential's budget;
   * returns 0, or the milliseconds to wait (src/mcp/sessions/session.ts, admit).
   */
  admitUnbound(): number;
  maxSessions: number;
  logger: Logger;
  now?: () => number;
}

export class StreamableHttpTransport {
  readonly pool: SessionPool;
  private timers: ReturnType<typeof setInterval>[] = [];
  private stateless: { session: McpSession; endpoint: StatelessEndpoint } | undefined;

  constructor(private readonly opts: StreamableHttpOptions) {
    this.pool = new SessionPool(opts.maxSessions, opts.now);
  }

  /** Modern SSE streams open right now (subscriptions/listen, calls in progress). */
  get openStatelessStreams(): number {
    return this.stateless?.endpoint.openStreams ?? 0;
  }

  start(): void {
    this.timers.push(
      setInterval(() => this.pool.sweep(), SWEEP_MS),
      setInterval(() => {
        for (const session of this.pool.values()) session.standalone?.comment("keepalive");
        this.stateless?.endpoint.keepalive();
      }, KEEPALIVE_MS),
    );
  }

  stop(): void {
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
    this.pool.closeAll();
    this.stateless?.endpoint.stop();
    this.stateless?.session.close("bridge shutting down");
    this.stateless = undefined;
  }

  handle(request: Request): Promise<Response> | Response {
    switch (request.method) {
      case "POST":
        return this.post(request);
      case "GET":
        return this.get(request);
      case "DELETE":
        return this.delete(request);
      default:
        return new Response(null, { status: 405, headers: { allow: "GET, POST, DELETE" } });
    }
  }

  private async post(request: Request): Promise<Response> {
    const accept = request.headers.get("accept");
    if (!accepts(accept, "application/json") || !accepts(accept, "text/event-stream")) {
      return rpcErrorResponse(406, {
        code: RpcCode.serverError,
        message: "Not Acceptable: Client must accept both application/json and text/event-stream",
      });
    }
    if (!isJsonContentType(request.headers.get("content-type"))) {
      return rpcErrorResponse(415, {
        code: RpcCode.serverError,
        message: "Unsupported Media Type: Content-Type must be application/json (UTF-8)",
      });
    }
    // Charged before the body is read or parsed: a 4 MB body of garbage costs a token too.
    const id = request.headers.get(SESSION_HEADER);
    const known = id === null ? undefined : this.pool.get(id);
    const wait = known ? known.mcp.admit() : this.opts.admitUnbound();
    if (wait > 0) return tooManyRequests(wait);
    let text: string;
    try {
      text = await readBodyLimited(request, MAX_BODY_BYTES);
    } catch (err) {
      if (err instanceof BodyTooLarge)
        return rpcErrorResponse(413, {
          code: RpcCode.invalidRequest,
          message: `Payload Too Large: at most ${MAX_BODY_BYTES} bytes per message`,
        });
      throw err;
    }
    const decoded = decodeMessage(text);
    if (!decoded.ok)
      return new Response(JSON.stringify(decoded.response), { status: 400, headers: { "content-type": "application/json" } });
    const { incoming } = decoded;
    const headerVersion = request.headers.get("mcp-protocol-version");
    if (incoming.kind !== "response" && eraOf(incoming.message, { headerVersion }) === "modern") {
      // 2026-07-28 defines no client notifications over HTTP (cancelling is closing the stream).
      if (incoming.kind === "notification") return new Response(null, { status: 202 });
      return this.statelessEndpoint().handle(request, incoming.message);
    }
    if (incoming.kind === "request" && incoming.message.method === "initialize") return this.initialize(incoming);

    const found = this.sessionFor(request);
    if (found instanceof Response) return found;
    const headers = { [SESSION_HEADER]: found.id };
    if (incoming.kind !== "request") {
      await found.mcp.handle(incoming);
      return new Response(null, { status: 202, headers });
    }
    if (incoming.message.method === "tools/call") return this.streamCall(found, incoming);
    const response = await found.mcp.handle(incoming);
    return new Response(JSON.stringify(response), { status: 200, headers: { "content-type": "application/json", ...headers } });
  }

  private statelessEndpoint(): StatelessEndpoint {
    if (this.stateless === undefined) {
      const session = (this.opts.createStatelessSession ?? this.opts.createSession)();
      this.stateless = { session, endpoint: new StatelessEndpoint(session, this.opts.logger) };
    }
    return this.stateless.endpoint;
  }

  private async initialize(incoming: Incoming): Promise<Response> {
    const room = this.pool.makeRoom();
    if (!room.ok) {
      this.opts.logger.warn("HTTP session pool full of sessions in use; refusing a new session", {
        pool: this.pool.size,
        retryAfterSeconds: room.retryAfterSeconds,
      });
      return rpcErrorResponse(
        503,
        {
          code: RpcCode.serverError,
          message: `Service Unavailable: all ${this.pool.size} MCP sessions are in use (--max-sessions); retry in ${room.retryAfterSeconds} s, or end an unused session with DELETE`,
        },
        { headers: { "retry-after": String(room.retryAfterSeconds) } },
      );
    }
    const session = new HttpSession(this.opts.createSession());
    // Added before the await, so concurrent initializes cannot all take the same free place.
    this.pool.add(session);
    const response = await session.mcp.handle(incoming);
    if (!response || "error" in response) {
      this.pool.remove(session.id);
      return new Response(JSON.stringify(response), { status: 400, headers: { "content-type": "application/json" } });
    }
    this.opts.logger.debug("HTTP session opened", { session: session.id, pool: this.pool.size });
    return new Response(JSON.stringify(response), {
      status: 200,
      headers: { "content-type": "application/json", [SESSION_HEADER]: session.id },
    });
  }

  /**
   * tools/call answers on an SSE stream so progress and log notifications can precede it; a quick
   * answer goes out whole in one write (src/transports/http/held-sse.ts).
   */
  private async streamCall(session: HttpSession, incoming: Incoming): Promise<Response> {
    const channel = session.newChannel();
    const held = holdSse(() => channel.detach(held.connection));
    channel.attach(held.connection);
    if (primesSseStreams(session.mcp.protocolVersion)) channel.prime();
    const body = held.armed();
    void session.mcp.handle(incoming, channel).then(
      (response) => {
        if (response) channel.send(response);
        channel.finish();
      },
      (err: unknown) => {
        this.opts.logger.error("tools/call stream failed", { error: String(err) });
        channel.finish();
      },
    );
    return new Response(await body, { status: 200, headers: { ...SSE_HEADERS, [SESSION_HEADER]: session.id } });
  }

  private get(request: Request): Response {
    if (!accepts(request.headers.get("accept"), "text/event-stream")) {
      return rpcErrorResponse(406, { code: RpcCode.serverError, message: "Not Acceptable: Client must accept text/event-stream" });
    }
    const found = this.sessionFor(request);
    if (found instanceof Response) return found;
    const lastEventId = request.headers.get("last-event-id");
    let channel: SseChannel | undefined;
    let afterSeq = -1;
    if (lastEventId) {
      const parsed = parseEventId(lastEventId);
      channel = parsed && found.channel(parsed.streamId);
      if (!parsed || !channel) {
        return rpcErrorResponse(400, {
          code: RpcCode.serverError,
          message: "Bad Request: unknown Last-Event-ID; open a new stream without it",
        });
      }
      afterSeq = parsed.seq;
      if (!channel.canResume(afterSeq)) {
        return rpcErrorResponse(400, {
          code: RpcCode.serverError,
          message: "Bad Request: that stream's response is no longer kept (replay memory is bounded per session); send the request again",
        });
      }
    } else {
      if (found.standalone?.connected) {
        return rpcErrorResponse(409, { code: RpcCode.serverError, message: "Conflict: Only one SSE stream is allowed per session" });
      }
      channel = found.standalone ??= found.newChannel();
      found.mcp.attach(channel);
    }
    const target = channel;
    const connection = openSseConnection(() => target.detach(connection));
    target.attach(connection, afterSeq);
    return new Response(connection.body, { status: 200, headers: { ...SSE_HEADERS, [SESSION_HEADER]: found.id } });
  }

  private delete(request: Request): Response {
    const found = this.sessionFor(request);
    if (found instanceof Response) return found;
    this.pool.remove(found.id);
    this.opts.logger.debug("HTTP session ended by client", { session: found.id });
    return new Response(null, { status: 200 });
  }

  /** The session a non-initialize request names, or the error response the spec asks for. */
  private sessionFor(request: Request): HttpSession | Response {
    const unsupported = checkProtocolHeader(request.headers.get("mcp-protocol-version"));
    if (unsupported) return rpcErrorResponse(400, { code: unsupported.code, message: unsupported.message });
    const id = request.headers.get(SESSION_HEADER);
    if (!id) return rpcErrorResponse(400, { code: RpcCode.serverError, message: "Bad Request: Mcp-Session-Id header is required" });
    const session = this.pool.get(id);
    if (!session) return rpcErrorResponse(404, { code: RpcCode.sessionNotFound, message: "Session not found" });
    return session;
  }
}

/** 429 with Retry-After, for a message refused by a rate budget before it was read. */
function tooManyRequests(waitMs: number): Response {
  const err = rateLimitedError(waitMs);
  return rpcErrorResponse(
    429,
    { code: err.code, message: err.message, data: err.data },
    { headers: { "retry-after": String(Math.ceil(waitMs / 1000)) } },
  );
}
