// Streamable HTTP for the modern era (2026-07-28): every request stands alone, no session id is
// minted or read, no GET stream, no resumption. Each POST is checked (its `_meta` envelope, then
// the mirrored headers) and handed to one session kept for stateless requests; tools/call and
// subscriptions/listen answer on an SSE stream of their own, whose closing by the client cancels
// them. The era was decided by the caller (src/mcp/protocol/era.ts).
import { ProtocolError } from "../../errors.ts";
import type { Logger } from "../../log.ts";
import { errorMessageFor, type JsonRpcMessage, type JsonRpcRequest } from "../../mcp/protocol/jsonrpc.ts";
import { readEnvelope } from "../../mcp/protocol/revisions/modern.ts";
import type { McpSession } from "../../mcp/sessions/session.ts";
import { checkModernHeaders } from "./modern-headers.ts";
import { openSseConnection } from "./sse-channel.ts";

/** Answered on an SSE stream: notifications precede the response, or (listen) are the point. */
const STREAMED = new Set(["tools/call", "subscriptions/listen"]);
// X-Accel-Buffering: proxies must pass events on at once (2026-07-28 "Receiving Messages").
const SSE_HEADERS = {
  "content-type": "text/event-stream",
  "cache-control": "no-cache",
  connection: "keep-alive",
  "x-accel-buffering": "no",
};

interface OpenStream {
  comment(text: string): void;
}

export class StatelessEndpoint {
  private readonly streams = new Set<OpenStream>();

  constructor(
    private readonly session: McpSession,
    private readonly logger: Logger,
  ) {}

  /** SSE streams open right now (listen streams and calls in progress). */
  get openStreams(): number {
    return this.streams.size;
  }

  async handle(http: Request, request: JsonRpcRequest): Promise<Response> {
    let refusal: ProtocolError | undefined;
    try {
      refusal = checkModernHeaders(http.headers, request, readEnvelope(request.params));
    } catch (err) {
      if (!(err instanceof ProtocolError)) throw err;
      refusal = err;
    }
    if (refusal) return json(400, errorMessageFor(request.id, refusal));
    if (STREAMED.has(request.method)) return this.stream(request);
    const reply = await this.session.handleModern(request);
    return reply.response ? json(reply.status, reply.response) : new Response(null, { status: 202 });
  }

  /** Keeps idle streams open through proxies and client idle timers. */
  keepalive(): void {
    for (const stream of this.streams) stream.comment("keepalive");
  }

  /** The bridge stops: listen streams get their graceful end (a result), then close. */
  stop(): void {
    this.session.endSubscriptions();
  }

  private stream(request: JsonRpcRequest): Response {
    const cancelled = new AbortController();
    const connection = openSseConnection(() => cancelled.abort());
    const write = (message: JsonRpcMessage) => connection.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
    const stream: OpenStream = { comment: (text) => connection.write(`: ${text}\n\n`) };
    this.streams.add(stream);
    void this.session
      .handleModern(request, { related: { send: write }, signal: cancelled.signal })
      .then(
        (reply) => {
          // A cancelled request gets nothing more (2026-07-28 "Cancellation").
          if (reply.response && !cancelled.signal.aborted) write(reply.response);
        },
        (err: unknown) => this.logger.error(`${request.method} stream failed`, { error: String(err) }),
      )
      .finally(() => {
        this.streams.delete(stream);
        connection.close();
      });
    return new Response(connection.body, { status: 200, headers: SSE_HEADERS });
  }
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}
