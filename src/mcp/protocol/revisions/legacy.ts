// The codec of the legacy revisions (2024-11-05 to 2025-11-25): the `initialize` handshake and
// its InitializeResult. Their results and errors are the core's own shapes, unchanged, so this
// module only has the handshake to say; what a session keeps of it lives in McpSession.
import * as v from "valibot";
import { ProtocolError, RpcCode } from "../../../errors.ts";
import { BRIDGE_PROTOCOL_VERSION } from "../../../version.ts";
import { SERVER_INFO, serverCapabilities } from "../server-identity.ts";
import type { Params } from "../jsonrpc.ts";
import { negotiateVersion, type ProtocolVersion } from "../versions.ts";

const InitializeParams = v.object({
  protocolVersion: v.string(),
  capabilities: v.optional(v.record(v.string(), v.unknown())),
  clientInfo: v.optional(v.object({ name: v.string(), version: v.optional(v.string()) })),
});

interface Negotiated {
  protocolVersion: ProtocolVersion;
  clientInfo: { name: string; version?: string } | undefined;
  result: Params;
}

export function negotiate(params: Params, instructions: string | undefined): Negotiated {
  const parsed = v.safeParse(InitializeParams, params);
  if (!parsed.success) {
    throw new ProtocolError(
      RpcCode.invalidParams,
      "Invalid params: initialize needs protocolVersion (string), capabilities and clientInfo",
    );
  }
  const protocolVersion = negotiateVersion(parsed.output.protocolVersion);
  const result: Params = {
    protocolVersion,
    capabilities: serverCapabilities(),
    serverInfo: { ...SERVER_INFO },
    _meta: { bridgeProtocolVersion: BRIDGE_PROTOCOL_VERSION },
  };
  if (instructions) result.instructions = instructions;
  return { protocolVersion, clientInfo: parsed.output.clientInfo, result };
}
