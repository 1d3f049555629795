// MCP protocol revisions this bridge speaks, newest first, and what differs between them on the
// wire. A new revision is a new entry here (plus, where its wire format differs, a codec module of
// its own); transports ask this module instead of comparing version strings themselves.
import { ProtocolError, RpcCode } from "../../errors.ts";

export const SUPPORTED_PROTOCOL_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"] as const;
export type ProtocolVersion = (typeof SUPPORTED_PROTOCOL_VERSIONS)[number];
const LATEST_PROTOCOL_VERSION: ProtocolVersion = SUPPORTED_PROTOCOL_VERSIONS[0];

function isSupportedVersion(version: string): version is ProtocolVersion {
  return (SUPPORTED_PROTOCOL_VERSIONS as readonly string[]).includes(version);
}

/** The spec's rule: echo a supported requested version, otherwise offer our latest. */
export function negotiateVersion(requested: unknown): ProtocolVersion {
  return typeof requested === "string" && isSupportedVersion(requested) ? requested : LATEST_PROTOCOL_VERSION;
}

/**
 * Streamable HTTP's MCP-Protocol-Version header (2025-06-18 and later): absent is fine (older
 * clients), an unsupported value is refused at once. That prompt 400 is also how a 2026-07-28
 * client's `server/discover` probe learns to fall back to initialize (protocol.md B8).
 */
export function checkProtocolHeader(header: string | null): ProtocolError | undefined {
  if (header === null || isSupportedVersion(header)) return undefined;
  return new ProtocolError(
    RpcCode.serverError,
    `Bad Request: Unsupported protocol version: ${header} (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(", ")})`,
  );
}

/** 2025-11-25 servers open each SSE stream with an empty event, the client's first resumption point. */
export function primesSseStreams(version: ProtocolVersion | undefined): boolean {
  return version === "2025-11-25";
}
