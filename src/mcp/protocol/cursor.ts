// Opaque pagination cursors (MCP "Pagination"): clients must not parse them, and a cursor from
// a different tool list (after list_changed) is refused rather than silently misread.
import { ProtocolError, RpcCode } from "../../errors.ts";

interface CursorState {
  offset: number;
  listVersion: number;
}

export function encodeCursor(state: CursorState): string {
  const bytes = new TextEncoder().encode(`${state.listVersion}:${state.offset}`);
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

export function decodeCursor(cursor: unknown, listVersion: number): number {
  if (cursor === undefined) return 0;
  const invalid = new ProtocolError(RpcCode.invalidParams, "Invalid params: unknown or expired cursor; list again without a cursor");
  if (typeof cursor !== "string" || cursor.length > 64) throw invalid;
  let text: string;
  try {
    text = atob(cursor.replace(/-/g, "+").replace(/_/g, "/"));
  } catch {
    throw invalid;
  }
  const match = /^(\d+):(\d+)$/.exec(text);
  if (!match || Number(match[1]) !== listVersion) throw invalid;
  return Number(match[2]);
}
