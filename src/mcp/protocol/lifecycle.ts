// The stateless halves of initialize and tools/list: parsing, version negotiation, the
// InitializeResult, and cursor pages. McpSession keeps only the state they change.
import * as v from "valibot";
import { ProtocolError, RpcCode } from "../../errors.ts";
import type { ToolRegistry } from "../../tools/platform/registry.ts";
import { BRIDGE_PROTOCOL_VERSION, PACKAGE_VERSION, SERVER_NAME } from "../../version.ts";
import { decodeCursor, encodeCursor } from "./cursor.ts";
import type { Params } from "./jsonrpc.ts";
import { negotiateVersion, type ProtocolVersion } from "./versions.ts";

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
    capabilities: { tools: { listChanged: true }, logging: {}, resources: {}, prompts: {} },
    serverInfo: { name: SERVER_NAME, title: "Claude IDE Bridge", version: PACKAGE_VERSION },
    _meta: { bridgeProtocolVersion: BRIDGE_PROTOCOL_VERSION },
  };
  if (instructions) result.instructions = instructions;
  return { protocolVersion, clientInfo: parsed.output.clientInfo, result };
}

/** One tools/list page; `nextCursor` only when more follow (MCP "Pagination"). */
export function toolsPage(registry: ToolRegistry, opts: { cursor: unknown; pageSize: number }): Params {
  const { cursor, pageSize } = opts;
  const offset = decodeCursor(cursor, registry.version);
  const entries = registry.entries();
  const page = entries.slice(offset, offset + pageSize);
  const next = offset + page.length;
  return next < entries.length
    ? { tools: page, nextCursor: encodeCursor({ offset: next, listVersion: registry.version }) }
    : { tools: page };
}
