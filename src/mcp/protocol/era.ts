// Which era a request belongs to, decided once where it enters (2026-07-28 "Versioning:
// Backward Compatibility"): a request carrying the per-request `_meta` protocol version is modern
// and served statelessly; so is `server/discover`, the probe every dual-era client sends first;
// on HTTP an MCP-Protocol-Version header naming a modern revision says the same. Everything else
// (initialize and what follows it) is legacy and belongs to a session.
import type { Params } from "./jsonrpc.ts";
import { META_PROTOCOL_VERSION } from "./revisions/modern.ts";
import { isModernVersion } from "./versions.ts";

export type Era = "legacy" | "modern";

export function eraOf(message: { method: string; params?: Params }, opts?: { headerVersion?: string | null }): Era {
  if (message.method === "server/discover") return "modern";
  const meta = message.params?._meta;
  if (typeof meta === "object" && meta !== null && META_PROTOCOL_VERSION in meta) return "modern";
  return isModernVersion(opts?.headerVersion) ? "modern" : "legacy";
}
