// JSON-RPC 2.0 messages as MCP uses them, validated with valibot so nothing past this file
// handles an unchecked shape.
import * as v from "valibot";
import { ProtocolError, RpcCode } from "../../errors.ts";

export type RequestId = string | number;
export type Params = Record<string, unknown>;

const Id = v.union([v.string(), v.pipe(v.number(), v.integer())]);
// MCP's params are always an object (JSON-RPC would allow an array); v.record alone accepts arrays.
const ParamsSchema = v.custom<Record<string, unknown>>(
  (value) => typeof value === "object" && value !== null && !Array.isArray(value),
  "params must be an object, not an array",
);

const RequestSchema = v.object({
  jsonrpc: v.literal("2.0"),
  id: Id,
  method: v.string(),
  params: v.optional(ParamsSchema),
});
const NotificationSchema = v.object({
  jsonrpc: v.literal("2.0"),
  method: v.string(),
  params: v.optional(ParamsSchema),
});
const ErrorObject = v.object({ code: v.number(), message: v.string(), data: v.optional(v.unknown()) });
const ResponseSchema = v.union([
  v.object({ jsonrpc: v.literal("2.0"), id: Id, result: v.record(v.string(), v.unknown()) }),
  v.object({ jsonrpc: v.literal("2.0"), id: v.union([Id, v.null()]), error: ErrorObject }),
]);

export type JsonRpcRequest = v.InferOutput<typeof RequestSchema>;
export type JsonRpcNotification = v.InferOutput<typeof NotificationSchema>;
export type JsonRpcResponse =
  | { jsonrpc: "2.0"; id: RequestId; result: Params }
  | { jsonrpc: "2.0"; id: RequestId | null; error: { code: number; message: string; data?: unknown } };
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

export type Incoming =
  | { kind: "request"; message: JsonRpcRequest }
  | { kind: "notification"; message: JsonRpcNotification }
  | { kind: "response"; message: JsonRpcResponse };

/** Classifies an already JSON-parsed value; throws ProtocolError(-32600) for anything else. */
export function classify(value: unknown): Incoming {
  if (Array.isArray(value)) {
    throw new ProtocolError(
      RpcCode.invalidRequest,
      "Invalid Request: JSON-RPC batches are not supported (MCP 2025-06-18 removed them); send one message at a time",
    );
  }
  if (typeof value !== "object" || value === null) {
    throw new ProtocolError(RpcCode.invalidRequest, "Invalid Request: a JSON-RPC message must be an object");
  }
  if ("method" in value) {
    const plain = plainRequestOrNotification(value);
    if (plain !== undefined) return plain;
    if ("id" in value) {
      const request = v.safeParse(RequestSchema, value);
      if (request.success) return { kind: "request", message: request.output };
      throw invalid(request.issues);
    }
    const notification = v.safeParse(NotificationSchema, value);
    if (notification.success) return { kind: "notification", message: notification.output };
    throw invalid(notification.issues);
  }
  const response = v.safeParse(ResponseSchema, value);
  if (response.success) return { kind: "response", message: response.output as JsonRpcResponse };
  throw invalid(response.issues);
}

/**
 * The request or notification every client sends, checked by hand: the same rules as the schemas
 * and the same output (the known fields only, `params` only when given), at a fraction of a
 * schema parse, which on a ping costs more than the rest of the bridge's work for the message.
 * Anything else (a wrong field, an extra oddity) is left to the schemas, which name the fault.
 */
function plainRequestOrNotification(value: object): Incoming | undefined {
  const { jsonrpc, method, params } = value as { jsonrpc?: unknown; method?: unknown; params?: unknown };
  if (jsonrpc !== "2.0" || typeof method !== "string") return undefined;
  if ("params" in value && (typeof params !== "object" || params === null || Array.isArray(params))) return undefined;
  const given = params as Params | undefined;
  if (!("id" in value)) {
    return { kind: "notification", message: "params" in value ? { jsonrpc, method, params: given } : { jsonrpc, method } };
  }
  const id = (value as { id?: unknown }).id;
  if (typeof id !== "string" && !Number.isInteger(id)) return undefined;
  const request = id as RequestId;
  return {
    kind: "request",
    message: "params" in value ? { jsonrpc, id: request, method, params: given } : { jsonrpc, id: request, method },
  };
}

function invalid(issues: v.BaseIssue<unknown>[]): ProtocolError {
  const detail = issues
    .slice(0, 3)
    .map((issue) => `${v.getDotPath(issue) ?? "message"}: ${issue.message}`)
    .join("; ");
  return new ProtocolError(RpcCode.invalidRequest, `Invalid Request: ${detail}`);
}

export function resultMessage(id: RequestId, result: Params): JsonRpcResponse {
  return { jsonrpc: "2.0", id, result };
}

export function errorMessageFor(id: RequestId | null, err: ProtocolError): JsonRpcResponse {
  const error: { code: number; message: string; data?: unknown } = { code: err.code, message: err.message };
  if (err.data !== undefined) error.data = err.data;
  return { jsonrpc: "2.0", id, error };
}

export function notificationMessage(method: string, params?: Params): JsonRpcNotification {
  return params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params };
}
