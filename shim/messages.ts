// JSON-RPC as the shim needs it: classify a client line, build the error responses the shim
// answers with itself, and find a response's id cheaply (the bridge's responses start with it).
import { idFromToken } from "../src/mcp/protocol/id-token.ts";
import { ATTACH_NOTICE_METHOD } from "../src/wire.ts";

export type RequestId = string | number;

export type ClientMessage =
  | { kind: "request"; id: RequestId; method: string; params: unknown; text: string }
  | { kind: "notification"; method: string; params: unknown; text: string }
  /** Responses to the bridge's requests, and anything else that is JSON (the bridge judges it). */
  | { kind: "other"; text: string };

/** Shim-made errors use the JSON-RPC server range; `data.reason` tells them apart. */
export const ShimErrorCode = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  /** The bridge went away while the request was in flight, or never came back. */
  bridgeUnavailable: -32000,
} as const;

export type ShimErrorReason =
  | "bridge_disconnected"
  | "bridge_unreachable"
  | "bridge_refused"
  | "queue_full"
  | "too_large"
  | "not_utf8"
  | "not_json"
  | "legacy_protocol";

/** Parses one line; throws SyntaxError for text that is not JSON. */
export function classifyLine(text: string): ClientMessage {
  const value: unknown = JSON.parse(text);
  if (typeof value !== "object" || value === null || Array.isArray(value) || !("method" in value) || typeof value.method !== "string") {
    return { kind: "other", text };
  }
  const params = "params" in value ? value.params : undefined;
  if ("id" in value && (typeof value.id === "string" || typeof value.id === "number")) {
    return { kind: "request", id: value.id, method: value.method, params, text };
  }
  return { kind: "notification", method: value.method, params, text };
}

/** An error the shim answers with itself; `data` says why (`reason`) and that the shim said it. */
export interface ShimError {
  code: number;
  message: string;
  reason: ShimErrorReason;
  data?: Record<string, unknown>;
}

export function errorLine(id: RequestId | null, error: ShimError): string {
  const data = { reason: error.reason, source: "claude-ide-bridge shim", ...error.data };
  return JSON.stringify({ jsonrpc: "2.0", id, error: { code: error.code, message: error.message, data } });
}

/** A map key that keeps 1 and "1" apart (JSON-RPC allows both, and they are different ids). */
export function idKey(id: RequestId): string {
  return typeof id === "number" ? `n:${id}` : `s:${id}`;
}

// `{"jsonrpc":"2.0","id":12,"result":...` as JSON.stringify writes the bridge's responses.
const RESPONSE_HEAD = /^\{"jsonrpc":"2\.0","id":(-?\d+|"[^"\\]*"),"(?:result|error)":/;

type BridgeMessage =
  | { kind: "response"; id: RequestId | null; text: string; value?: unknown }
  | { kind: "other"; text: string; value: unknown };

/** Classifies a bridge frame, parsing it in full only when the fast path does not apply. */
export function classifyBridgeFrame(text: string): BridgeMessage {
  const head = RESPONSE_HEAD.exec(text.slice(0, 200));
  if (head?.[1] !== undefined) {
    const raw = head[1];
    return { kind: "response", id: raw.startsWith('"') ? raw.slice(1, -1) : Number(raw), text };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: "other", text, value: undefined };
  }
  if (typeof value === "object" && value !== null && !("method" in value) && "id" in value && ("result" in value || "error" in value)) {
    const id = value.id;
    return { kind: "response", id: typeof id === "string" || typeof id === "number" ? id : null, text, value };
  }
  return { kind: "other", text, value };
}

// For a line too large to keep: its id, if its first or last few KB show one at the top level.
const ID_AT_START = /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.){0,256}")/;
const ID_AT_END = /[,{]\s*"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.){0,256}")\s*\}\s*$/;

export function salvageId(head: string, tail: string): RequestId | null {
  return idFromToken(ID_AT_START.exec(head)?.[1] ?? ID_AT_END.exec(tail)?.[1]);
}

/** The notice the bridge sends first on a socket that asked for it (src/wire.ts). */
export interface AttachNotice {
  session: string;
  resumed: boolean;
  initialized: boolean;
}

export function asAttachNotice(value: unknown): AttachNotice | undefined {
  if (typeof value !== "object" || value === null || !("method" in value) || value.method !== ATTACH_NOTICE_METHOD) return undefined;
  const params = "params" in value ? value.params : undefined;
  if (typeof params !== "object" || params === null) return undefined;
  const p = params as Record<string, unknown>;
  return { session: String(p.session ?? ""), resumed: p.resumed === true, initialized: p.initialized === true };
}
