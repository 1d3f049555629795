// The one decode path of incoming JSON-RPC text, shared by every transport (WebSocket frames,
// Streamable HTTP bodies): parse, then classify; malformed input becomes the error response to
// send, never a throw.
import { ProtocolError, RpcCode } from "../../errors.ts";
import { idFromToken } from "./id-token.ts";
import { classify, errorMessageFor, type Incoming, type JsonRpcResponse, type RequestId } from "./jsonrpc.ts";

type Decoded = { ok: true; incoming: Incoming } | { ok: false; error: ProtocolError; response: JsonRpcResponse };

export function decodeMessage(text: string): Decoded {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    const error = new ProtocolError(RpcCode.parseError, `Parse error: ${err instanceof Error ? err.message : "invalid JSON"}`);
    return { ok: false, error, response: errorMessageFor(null, error) };
  }
  try {
    return { ok: true, incoming: classify(value) };
  } catch (err) {
    if (!(err instanceof ProtocolError)) throw err;
    return { ok: false, error: err, response: errorMessageFor(salvageId(value), err) };
  }
}

/** The id of a message that failed validation, when it had a usable one (for the error reply). */
function salvageId(value: unknown): RequestId | null {
  if (typeof value !== "object" || value === null || !("id" in value)) return null;
  const id = value.id;
  return typeof id === "string" || (typeof id === "number" && Number.isInteger(id)) ? id : null;
}

// `{"jsonrpc":"2.0","id":7,…` or `{"id":"a",…`: the id near the start, as clients write it.
const ID_NEAR_START = /^\s*\{[^{}[\]]{0,200}?"id"\s*:\s*(-?\d{1,16}|"(?:[^"\\]|\\.){0,128}")/;

/** The id of a message that is not parsed at all (refused by a rate limit), when it shows early. */
export function peekId(text: string): RequestId | null {
  return idFromToken(ID_NEAR_START.exec(text.slice(0, 512))?.[1]);
}
