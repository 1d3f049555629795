// Raw HTTP for protocol checks: node:http sends exactly the headers given (plus Host and
// Content-Length unless given), unlike fetch, which adds Accept, User-Agent and friends.
import { request, type IncomingHttpHeaders, type IncomingMessage } from "node:http";

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  /** JSON-RPC messages in the body: one JSON object, or the `data:` lines of an SSE stream. */
  messages: JsonRpcMessage[];
}

export interface JsonRpcMessage {
  jsonrpc?: string;
  id?: string | number | null;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

export interface RawRequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Default 20 s: a bound for a server that never answers, not for one a loaded machine keeps waiting. */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 20_000;

/** Sends one request and reads the whole response (the server must end it). */
export function rawRequest(url: string, opts: RawRequestOptions = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: opts.method ?? "GET", headers: opts.headers ?? {} }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => (body += d));
      res.on("end", () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, messages: parseMessages(res.headers, body) });
      });
      res.on("error", reject);
    });
    const timer = setTimeout(() => {
      req.destroy(new Error(`${opts.method ?? "GET"} ${url}: no complete response within ${opts.timeoutMs ?? DEFAULT_TIMEOUT_MS} ms`));
    }, opts.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    req.on("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
    req.end(opts.body);
  });
}

/** Opens a request and resolves as soon as the response head arrives (for SSE streams). */
export function openStream(url: string, opts: RawRequestOptions = {}): Promise<{ res: IncomingMessage; close(): void }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: opts.method ?? "GET", headers: opts.headers ?? {} }, (res) => {
      clearTimeout(timer);
      resolve({ res, close: () => req.destroy() });
    });
    const timer = setTimeout(() => {
      req.destroy(new Error(`${opts.method ?? "GET"} ${url}: no response head within ${opts.timeoutMs ?? DEFAULT_TIMEOUT_MS} ms`));
    }, opts.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    req.on("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
    req.end(opts.body);
  });
}

export function parseMessages(headers: IncomingHttpHeaders, body: string): JsonRpcMessage[] {
  const type = headers["content-type"] ?? "";
  try {
    if (type.includes("text/event-stream")) {
      return body
        .split(/\r?\n\r?\n/)
        .map((event) =>
          event
            .split(/\r?\n/)
            .filter((line) => line.startsWith("data:"))
            .map((line) => line.slice(5).replace(/^ /, ""))
            .join("\n"),
        )
        .filter((data) => data.trim() !== "")
        .map((data) => JSON.parse(data) as JsonRpcMessage);
    }
    if (type.includes("json") && body.trim() !== "") return [JSON.parse(body) as JsonRpcMessage];
  } catch {
    return [];
  }
  return [];
}

/** A minimal Streamable HTTP client for raw checks: initialize once, then post with the session. */
export class RawMcpSession {
  sessionId: string | undefined;
  protocolVersion = "2025-11-25";
  private nextId = 1;

  constructor(
    readonly mcpUrl: string,
    readonly token: string,
  ) {}

  baseHeaders(extra: Record<string, string> = {}): Record<string, string> {
    return {
      authorization: `Bearer ${this.token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...extra,
    };
  }

  sessionHeaders(extra: Record<string, string> = {}): Record<string, string> {
    if (this.sessionId === undefined) throw new Error("not initialized");
    return this.baseHeaders({
      "mcp-session-id": this.sessionId,
      "mcp-protocol-version": this.protocolVersion,
      ...extra,
    });
  }

  async initialize(protocolVersion = "2025-11-25"): Promise<RawResponse> {
    const res = await rawRequest(this.mcpUrl, {
      method: "POST",
      headers: this.baseHeaders(),
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: this.nextId++,
        method: "initialize",
        params: { protocolVersion, capabilities: {}, clientInfo: { name: "raw-e2e", version: "0.0.0" } },
      }),
    });
    const sid = res.headers["mcp-session-id"];
    if (res.status !== 200 || typeof sid !== "string") {
      throw new Error(`initialize failed: HTTP ${res.status}, session ${String(sid)}, body ${res.body}`);
    }
    this.sessionId = sid;
    const negotiated = res.messages[0]?.result?.protocolVersion;
    if (typeof negotiated === "string") this.protocolVersion = negotiated;
    const ack = await this.post({ jsonrpc: "2.0", method: "notifications/initialized" });
    if (ack.status !== 202) throw new Error(`notifications/initialized: HTTP ${ack.status}, body ${ack.body}`);
    return res;
  }

  /** POSTs one message with the session headers (overridable). */
  post(message: Record<string, unknown>, headers: Record<string, string> = {}): Promise<RawResponse> {
    return rawRequest(this.mcpUrl, { method: "POST", headers: this.sessionHeaders(headers), body: JSON.stringify(message) });
  }

  /** Ends the session with DELETE (the bridge keeps few HTTP sessions; free them). */
  async close(): Promise<void> {
    if (this.sessionId === undefined) return;
    await rawRequest(this.mcpUrl, { method: "DELETE", headers: this.sessionHeaders() }).catch(() => undefined);
    this.sessionId = undefined;
  }

  request(method: string, params: Record<string, unknown> = {}, headers: Record<string, string> = {}): Promise<RawResponse> {
    return this.post({ jsonrpc: "2.0", id: this.nextId++, method, params }, headers);
  }
}
