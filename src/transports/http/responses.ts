// HTTP responses carrying a JSON-RPC error, in the shape the MCP SDK's server uses, so clients
// (and Claude Code's 404 + -32001 expiry check) recognise them.
import { concatBytes } from "../../lib/text/bytes.ts";
import type { RequestId } from "../../mcp/protocol/jsonrpc.ts";

export function rpcErrorResponse(
  status: number,
  rpcError: { code: number; message: string; data?: unknown },
  opts: { headers?: Record<string, string>; id?: RequestId | null } = {},
): Response {
  const { code, message, data } = rpcError;
  const error = data === undefined ? { code, message } : { code, message, data };
  const body = JSON.stringify({ jsonrpc: "2.0", error, id: opts.id ?? null });
  return new Response(body, { status, headers: { "content-type": "application/json", ...opts.headers } });
}

/**
 * Whether a Content-Type is JSON: the media type parsed (RFC 9110 8.3.1), not prefix-matched
 * (`application/jsonx` is not JSON), with no charset but UTF-8 (RFC 8259 8.1).
 */
export function isJsonContentType(header: string | null): boolean {
  if (!header) return false;
  // What clients send, answered without parsing (this runs for every POST).
  if (header === "application/json") return true;
  const [type, ...params] = header.split(";");
  if (type?.trim().toLowerCase() !== "application/json") return false;
  for (const param of params) {
    const [name, value] = param.split("=", 2).map((part) => part.trim().toLowerCase());
    if (name === "charset" && value?.replace(/^"|"$/g, "") !== "utf-8") return false;
  }
  return true;
}

const COMMON_MCP_ACCEPT = "application/json, text/event-stream";

/** True when an Accept header lists the media type (or a wildcard covering it). */
export function accepts(acceptHeader: string | null, mediaType: string): boolean {
  if (!acceptHeader) return false;
  // The header MCP clients send, answered without parsing it (this runs twice for every POST).
  if (acceptHeader === COMMON_MCP_ACCEPT) return mediaType === "application/json" || mediaType === "text/event-stream";
  const [type] = mediaType.split("/");
  return acceptHeader
    .split(",")
    .map((part) => part.split(";")[0]?.trim().toLowerCase())
    .some((range) => range === mediaType || range === `${type}/*` || range === "*/*");
}

export class BodyTooLarge extends Error {}

/** One decoder for every body: without `stream` a decode keeps no state, and making one per request costs more than using it. */
const utf8 = new TextDecoder();

/** Reads a request body as text, refusing more than `maxBytes` without buffering the excess. */
export async function readBodyLimited(request: Request, maxBytes: number): Promise<string> {
  const length = request.headers.get("content-length");
  const declared = Number(length ?? "0");
  if (declared > maxBytes) throw new BodyTooLarge();
  // With a length the server reads no more than it (HTTP/1.1 framing), so the whole body may be
  // asked for at once: on Node that skips building a web stream for every request (the adapter
  // reads the socket's buffers directly), the largest part of a small call's transport cost. As
  // text, decoded from those buffers as they are: an ArrayBuffer would be a copy first.
  if (length !== null && Number.isSafeInteger(declared) && declared >= 0) {
    const text = await request.text();
    // A character is at least one byte: more characters than maxBytes is more bytes too.
    if (text.length > maxBytes) throw new BodyTooLarge();
    return text;
  }
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw new BodyTooLarge();
    }
    chunks.push(value);
  }
  return utf8.decode(concatBytes(chunks));
}
