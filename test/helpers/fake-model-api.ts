// A stand-in for the Anthropic Messages API as the Claude Code CLI calls it, on 127.0.0.1 and a
// free port: point the CLI at it with ANTHROPIC_BASE_URL=<url> and ANTHROPIC_API_KEY=test-key.
// The test supplies a script that writes each assistant turn of the main conversation; side
// requests (see request-kind.ts) are answered without consuming it. Every request is recorded,
// body and all, so a test can read exactly what the model would have been shown.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { assistantMessage, roughTokens, streamFrames } from "./model-api-stream.ts";
import type { AssistantTurn, MessagesRequest } from "./model-api-types.ts";
import { classifyRequest, sideAnswer, type RequestKind } from "./request-kind.ts";

export type ModelScript = (request: MessagesRequest, info: { turn: number }) => AssistantTurn | Promise<AssistantTurn>;

export interface RecordedRequest {
  method: string;
  /** Path and query, e.g. /v1/messages?beta=true. */
  path: string;
  headers: IncomingMessage["headers"];
  /** The parsed JSON body; the raw text when it was not JSON; undefined when empty. */
  body: unknown;
  kind: RequestKind;
  status: number;
  /** Main-conversation turns only: the 1-based number the script was called with. */
  turn?: number;
}

export interface FakeModelApi {
  /** http://127.0.0.1:<port>, the value for ANTHROPIC_BASE_URL. */
  url: string;
  /** Every request in arrival order (live array). */
  requests: RecordedRequest[];
  /** The bodies of the main-conversation turns, in order. */
  turns(): MessagesRequest[];
  /** Errors the script threw; each was answered with a 400 so the CLI stops instead of retrying. */
  scriptErrors: Error[];
  close(): Promise<void>;
}

const MESSAGES = /^\/v1\/messages(\?|$)/;
const COUNT_TOKENS = /^\/v1\/messages\/count_tokens(\?|$)/;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    req.setEncoding("utf8").on("data", (d: string) => (text += d));
    req.once("end", () => resolve(text));
    req.once("error", reject);
  });
}

function parse(text: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const requestId = (): string => `req_fake_${Date.now().toString(36)}`;

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { "content-type": "application/json", "request-id": requestId() }).end(JSON.stringify(value));
}

/** The API's error envelope; 4xx other than 408/409/429 are not retried by the client. */
function sendError(res: ServerResponse, status: number, type: string, message: string): void {
  sendJson(res, status, { type: "error", error: { type, message } });
}

function sendTurn(res: ServerResponse, request: MessagesRequest, turn: AssistantTurn): void {
  const message = assistantMessage(turn, { model: request.model, inputTokens: roughTokens(JSON.stringify(request.messages)) });
  if (!request.stream) {
    sendJson(res, 200, message);
    return;
  }
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", "request-id": requestId() });
  for (const f of streamFrames(message)) res.write(f);
  res.end();
}

export async function startFakeModelApi(script: ModelScript): Promise<FakeModelApi> {
  const requests: RecordedRequest[] = [];
  const scriptErrors: Error[] = [];
  let turnCount = 0;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = req.url ?? "/";
    const method = req.method ?? "GET";
    const body = parse(await readBody(req));
    const record: RecordedRequest = { method, path, headers: req.headers, body, kind: "unknown", status: 0 };
    requests.push(record);
    res.once("finish", () => (record.status = res.statusCode));

    // The CLI checks that the base URL answers (HEAD / in 2.1.197, HEAD /api/hello in 2.1.332).
    if (method === "HEAD" || (method === "GET" && path === "/")) {
      record.kind = "probe";
      res.writeHead(200).end();
      return;
    }
    if (method === "POST" && COUNT_TOKENS.test(path)) {
      record.kind = "count_tokens";
      return sendJson(res, 200, { input_tokens: roughTokens(JSON.stringify(body ?? "")) });
    }
    if (method !== "POST" || !MESSAGES.test(path) || typeof body !== "object" || body === null) {
      return sendError(res, 404, "not_found_error", `the fake model API does not serve ${method} ${path}`);
    }
    const request = body as MessagesRequest;
    record.kind = classifyRequest(request);
    if (record.kind === "side") return sendTurn(res, request, sideAnswer(request));
    record.turn = ++turnCount;
    try {
      sendTurn(res, request, await script(request, { turn: record.turn }));
    } catch (err) {
      const error = err instanceof Error ? err : new Error(String(err));
      scriptErrors.push(error);
      sendError(res, 400, "invalid_request_error", `fake model script failed: ${error.message}`);
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) sendError(res, 500, "api_error", String(err));
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    scriptErrors,
    turns: () => requests.filter((r) => r.kind === "turn").map((r) => r.body as MessagesRequest),
    close: () =>
      new Promise<void>((resolve) => {
        // The CLI keeps connections alive; without this close() waits for it to drop them.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
