// Small readers of JSON-RPC values the relay takes apart (relay.ts): a request id in params, an
// object from a frame's text, whether an initialize result announces tool list changes.
import type { RequestId } from "./messages.ts";

export function requestIdOf(params: unknown): RequestId | undefined {
  const id = typeof params === "object" && params !== null ? (params as { requestId?: unknown }).requestId : undefined;
  return typeof id === "string" || typeof id === "number" ? id : undefined;
}

export function parseObject(value: unknown): Record<string, unknown> | undefined {
  let v = value;
  if (typeof v === "string") {
    try {
      v = JSON.parse(v);
    } catch {
      return undefined;
    }
  }
  return typeof v === "object" && v !== null ? (v as Record<string, unknown>) : undefined;
}

export function announcesToolListChanges(result: Record<string, unknown> | undefined): boolean {
  const capabilities = result?.capabilities;
  if (typeof capabilities !== "object" || capabilities === null) return false;
  const tools = (capabilities as Record<string, unknown>).tools;
  return typeof tools === "object" && tools !== null && (tools as Record<string, unknown>).listChanged === true;
}
