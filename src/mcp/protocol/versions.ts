// MCP protocol revisions this bridge speaks, newest first, and what differs between them on the
// wire. Two eras (2026-07-28 "Versioning"): legacy revisions open with an `initialize` handshake
// and keep a session; modern ones carry version, capabilities and client identity in every
// request's `_meta`. A new revision is a new entry here plus, where its wire format differs, a
// codec module of its own (src/mcp/protocol/revisions/); transports ask this module instead of
// comparing version strings themselves.
import { ProtocolError, RpcCode } from "../../errors.ts";

export const SUPPORTED_PROTOCOL_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"] as const;
export type ProtocolVersion = (typeof SUPPORTED_PROTOCOL_VERSIONS)[number];
const LATEST_PROTOCOL_VERSION: ProtocolVersion = SUPPORTED_PROTOCOL_VERSIONS[0];

/** The per-request (`_meta`) revisions, newest first; what server/discover offers. */
export const MODERN_PROTOCOL_VERSIONS = ["2026-07-28"] as const;
export type ModernProtocolVersion = (typeof MODERN_PROTOCOL_VERSIONS)[number];

function isSupportedVersion(version: string): version is ProtocolVersion {
  return (SUPPORTED_PROTOCOL_VERSIONS as readonly string[]).includes(version);
}

export function isModernVersion(version: unknown): version is ModernProtocolVersion {
  return typeof version === "string" && (MODERN_PROTOCOL_VERSIONS as readonly string[]).includes(version);
}

/** The spec's rule: echo a supported requested version, otherwise offer our latest. */
export function negotiateVersion(requested: unknown): ProtocolVersion {
  return typeof requested === "string" && isSupportedVersion(requested) ? requested : LATEST_PROTOCOL_VERSION;
}

/**
 * Streamable HTTP's MCP-Protocol-Version header on a legacy request (2025-06-18 and later):
 * absent is fine (older clients), an unsupported value is refused at once.
 */
export function checkProtocolHeader(header: string | null): ProtocolError | undefined {
  if (header === null || isSupportedVersion(header)) return undefined;
  return new ProtocolError(
    RpcCode.serverError,
    `Bad Request: Unsupported protocol version: ${header} (supported versions: ${[...MODERN_PROTOCOL_VERSIONS, ...SUPPORTED_PROTOCOL_VERSIONS].join(", ")})`,
  );
}

/** 2025-11-25 servers open each SSE stream with an empty event, the client's first resumption point. */
export function primesSseStreams(version: ProtocolVersion | undefined): boolean {
  return version === "2025-11-25";
}
