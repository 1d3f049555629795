// MCP protocol revisions this bridge speaks, newest first. A new revision is a new entry here
// plus, where its wire format differs, a codec module of its own.
export const SUPPORTED_PROTOCOL_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"] as const;
export type ProtocolVersion = (typeof SUPPORTED_PROTOCOL_VERSIONS)[number];
export const LATEST_PROTOCOL_VERSION: ProtocolVersion = SUPPORTED_PROTOCOL_VERSIONS[0];
/** What Streamable HTTP assumes when a request carries no MCP-Protocol-Version header. */
export const DEFAULT_HTTP_PROTOCOL_VERSION: ProtocolVersion = "2025-03-26";

export function isSupportedVersion(version: string): version is ProtocolVersion {
  return (SUPPORTED_PROTOCOL_VERSIONS as readonly string[]).includes(version);
}

/** The spec's rule: echo a supported requested version, otherwise offer our latest. */
export function negotiateVersion(requested: unknown): ProtocolVersion {
  return typeof requested === "string" && isSupportedVersion(requested) ? requested : LATEST_PROTOCOL_VERSION;
}
