// The request headers MCP 2026-07-28 mirrors from the body on Streamable HTTP ("Request
// Metadata"): MCP-Protocol-Version (= `_meta`'s protocol version), Mcp-Method (= method) and
// Mcp-Name (= params.name, params.uri or a task's params.taskId). A missing or mismatched one is
// refused with 400 and -32020 (HeaderMismatch), so a proxy routing on the header and this server
// acting on the body can never disagree. Checked here, in the transport, apart from auth.
import { ProtocolError, RpcCode } from "../../errors.ts";
import type { JsonRpcRequest } from "../../mcp/protocol/jsonrpc.ts";
import type { ModernEnvelope } from "../../mcp/protocol/revisions/modern.ts";

/** The body value Mcp-Name mirrors, by method; methods not listed carry no Mcp-Name. */
const NAME_SOURCE: Readonly<Record<string, string>> = {
  "tools/call": "name",
  "prompts/get": "name",
  "resources/read": "uri",
  "tasks/get": "taskId",
  "tasks/update": "taskId",
  "tasks/cancel": "taskId",
};

export function checkModernHeaders(headers: Headers, request: JsonRpcRequest, envelope: ModernEnvelope): ProtocolError | undefined {
  // Headers.get trims the optional whitespace around a value (RFC 9110 5.5); values are case-sensitive.
  const version = headers.get("mcp-protocol-version");
  if (version === null)
    return mismatch(`the MCP-Protocol-Version header is missing; send it equal to _meta's protocol version (${envelope.protocolVersion})`);
  if (version !== envelope.protocolVersion) {
    return mismatch(`MCP-Protocol-Version header value '${version}' does not match _meta's protocol version '${envelope.protocolVersion}'`);
  }
  const method = headers.get("mcp-method");
  if (method === null) return mismatch(`the Mcp-Method header is missing; send it equal to the body's method (${request.method})`);
  if (method !== request.method) return mismatch(`Mcp-Method header value '${method}' does not match body value '${request.method}'`);
  const field = NAME_SOURCE[request.method];
  if (field === undefined) return undefined;
  const body = request.params?.[field];
  const raw = headers.get("mcp-name");
  if (typeof body !== "string") {
    return raw === null ? undefined : mismatch(`Mcp-Name header is set but the body has no params.${field}`);
  }
  if (raw === null) return mismatch(`the Mcp-Name header is missing; send it equal to params.${field} ('${body}')`);
  const name = decodeSentinel(raw);
  if (name === undefined) return mismatch("Mcp-Name header value is not valid =?base64?...?= encoding");
  if (name !== body) return mismatch(`Mcp-Name header value '${raw}' does not match body value '${body}'`);
  return undefined;
}

/** A header value as sent, or the UTF-8 text of a `=?base64?…?=` value ("Value Encoding"). */
function decodeSentinel(value: string): string | undefined {
  const match = /^=\?base64\?([A-Za-z0-9+/]*={0,2})\?=$/.exec(value);
  if (!match) return value;
  try {
    const binary = atob(match[1] ?? "");
    return new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
  } catch {
    return undefined;
  }
}

function mismatch(detail: string): ProtocolError {
  return new ProtocolError(RpcCode.headerMismatch, `Header mismatch: ${detail}`);
}
