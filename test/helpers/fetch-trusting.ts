// fetch() for a test process that must trust a test CA: Node reads NODE_EXTRA_CA_CERTS only at
// start, so this speaks node:https with the CA given. Redirects are never followed (OAuth clients
// read them); the body streams, so SSE works; an AbortSignal aborts. Each request has its own
// connection (agent: false): a kept-alive socket the server is closing at that moment answers a
// reused request with "socket hang up", which a loaded machine makes likely.
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { Readable } from "node:stream";

const NULL_BODY = new Set([101, 103, 204, 205, 304]);

export type FetchInit = Omit<RequestInit, "body"> & { body?: BodyInit | Uint8Array | null };
export type FetchLike = (input: string | URL | Request, init?: FetchInit) => Promise<Response>;

export function fetchTrusting(ca: string): FetchLike {
  return async (input, init = {}) => {
    const request = input instanceof Request ? input : undefined;
    const url = new URL(request?.url ?? String(input));
    const headers = new Headers(request?.headers);
    for (const [k, v] of new Headers(init.headers)) headers.set(k, v);
    const method = init.method ?? request?.method ?? "GET";
    const body = await bodyBytes(init.body ?? (request && method !== "GET" ? await request.arrayBuffer() : undefined));
    if (body !== undefined) headers.set("content-length", String(body.byteLength));
    const signal = init.signal ?? undefined;
    return new Promise<Response>((resolve, reject) => {
      const options = { method, agent: false, headers: Object.fromEntries(headers), ...(url.protocol === "https:" ? { ca } : {}) };
      const req = (url.protocol === "https:" ? httpsRequest : httpRequest)(url, options, (res: IncomingMessage) => {
        const out = new Headers();
        for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) out.append(res.rawHeaders[i] ?? "", res.rawHeaders[i + 1] ?? "");
        const status = res.statusCode ?? 0;
        if (NULL_BODY.has(status) || method === "HEAD") res.resume();
        const stream = NULL_BODY.has(status) || method === "HEAD" ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>);
        const response = new Response(stream, { status, statusText: res.statusMessage ?? "", headers: out });
        Object.defineProperty(response, "url", { value: url.href });
        resolve(response);
      });
      req.on("error", reject);
      signal?.addEventListener("abort", () => req.destroy(signal.reason instanceof Error ? signal.reason : new Error("aborted")), {
        once: true,
      });
      req.end(body);
    });
  };
}

async function bodyBytes(body: FetchInit["body"] | ArrayBuffer): Promise<Uint8Array | undefined> {
  if (body === undefined || body === null) return undefined;
  if (typeof body === "string") return new TextEncoder().encode(body);
  if (body instanceof URLSearchParams) return new TextEncoder().encode(body.toString());
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (ArrayBuffer.isView(body)) return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  return new Uint8Array(await new Response(body as BodyInit).arrayBuffer());
}
