// The two scopes of the bridge's protected resource. mcp:read lists and calls the read-only tools
// (readOnlyHint); mcp:write everything, reading included, since a client that may edit files but
// not read them has no use.
export const READ_SCOPE = "mcp:read";
export const WRITE_SCOPE = "mcp:write";
export const SUPPORTED_SCOPES: readonly string[] = [READ_SCOPE, WRITE_SCOPE];

export type Access = "write" | "read" | "none";

/** The scopes of a space-separated list (RFC 6749 3.3), each once, in order. */
export function splitScopes(raw: string | undefined): string[] {
  if (raw === undefined) return [];
  return [...new Set(raw.split(" ").filter((s) => s !== ""))];
}

/** Of the requested scopes, those this server knows; all of them when none was asked for. */
export function knownScopes(requested: readonly string[]): string[] {
  if (requested.length === 0) return [...SUPPORTED_SCOPES];
  return SUPPORTED_SCOPES.filter((s) => requested.includes(s));
}

export function accessOf(scopes: readonly string[]): Access {
  if (scopes.includes(WRITE_SCOPE)) return "write";
  return scopes.includes(READ_SCOPE) ? "read" : "none";
}
