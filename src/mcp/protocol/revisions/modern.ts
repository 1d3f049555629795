// The codec of the modern revision (2026-07-28): every request carries its protocol version,
// client capabilities and (optionally) client identity and log level in `_meta`; every result
// says its `resultType`, names the server in `_meta`, and the list-like ones carry caching hints
// (2026-07-28 "Caching"). Errors keep the core's codes except where this revision renumbered them
// (resource not found is -32602 here, -32002 before). The core never sees any of it.
import * as v from "valibot";
import { ProtocolError, RpcCode } from "../../../errors.ts";
import { isLogLevel, type LogLevel } from "../../../capabilities/log-levels.ts";
import type { Params } from "../jsonrpc.ts";
import { SERVER_INFO, serverCapabilities } from "../server-identity.ts";
import { isModernVersion, MODERN_PROTOCOL_VERSIONS } from "../versions.ts";

export const META_PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";
const META_CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
const META_CLIENT_INFO = "io.modelcontextprotocol/clientInfo";
const META_LOG_LEVEL = "io.modelcontextprotocol/logLevel";
const META_SERVER_INFO = "io.modelcontextprotocol/serverInfo";
export const META_SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";
/** The tasks extension (SEP-2663), as clients and servers name it in `extensions`. */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

/** What one modern request says about itself. */
export interface ModernEnvelope {
  protocolVersion: string;
  capabilities: Record<string, unknown>;
  clientInfo?: { name: string; version: string };
  /** Absent: the request gets no notifications/message (the revision's rule). */
  logLevel?: LogLevel;
  progressToken?: string | number;
}

const ObjectValue = v.custom<Record<string, unknown>>((x) => typeof x === "object" && x !== null && !Array.isArray(x));
const Meta = v.object({
  [META_PROTOCOL_VERSION]: v.string(),
  [META_CLIENT_CAPABILITIES]: ObjectValue,
  [META_CLIENT_INFO]: v.optional(v.object({ name: v.string(), version: v.string() })),
  [META_LOG_LEVEL]: v.optional(v.string()),
  progressToken: v.optional(v.union([v.string(), v.number()])),
});

/**
 * The request's `_meta`, checked; -32602 naming what is missing (the revision makes protocol
 * version and client capabilities required on every request, client info optional).
 */
export function readEnvelope(params: Params | undefined): ModernEnvelope {
  const meta = params?._meta;
  if (typeof meta !== "object" || meta === null || Array.isArray(meta)) {
    throw envelopeError(
      `params._meta is missing; MCP 2026-07-28 requests carry ${META_PROTOCOL_VERSION} and ${META_CLIENT_CAPABILITIES} there`,
    );
  }
  const parsed = v.safeParse(Meta, meta);
  if (!parsed.success) {
    const where = parsed.issues.map((issue) => v.getDotPath(issue) ?? "_meta").join(", ");
    throw envelopeError(
      `params._meta is invalid at ${where}; it needs ${META_PROTOCOL_VERSION} (string) and ${META_CLIENT_CAPABILITIES} (object)`,
    );
  }
  const out = parsed.output;
  const level = out[META_LOG_LEVEL];
  if (level !== undefined && !isLogLevel(level))
    throw envelopeError(`${META_LOG_LEVEL} must be a log level such as "info", got ${JSON.stringify(level)}`);
  const envelope: ModernEnvelope = { protocolVersion: out[META_PROTOCOL_VERSION], capabilities: out[META_CLIENT_CAPABILITIES] };
  const info = out[META_CLIENT_INFO];
  if (info !== undefined) envelope.clientInfo = info;
  if (level !== undefined) envelope.logLevel = level;
  if (out.progressToken !== undefined) envelope.progressToken = out.progressToken;
  return envelope;
}

/** An envelope error: the request could not be read as a modern request at all (HTTP 400). */
export class EnvelopeError extends ProtocolError {}

function envelopeError(detail: string): EnvelopeError {
  return new EnvelopeError(RpcCode.invalidParams, `Invalid params: ${detail}`);
}

/**
 * The multi round-trip fields of a retried request (2026-07-28 "MRTR"): inputResponses maps keys
 * to response objects, requestState is a string. This server never asks for input, so the keys
 * answer nothing and are ignored, but a malformed shape is a protocol error (-32602).
 */
export function checkRoundTripFields(params: Params | undefined): void {
  if (params === undefined) return;
  if ("inputResponses" in params) {
    const responses = params.inputResponses;
    const isObject = (x: unknown) => typeof x === "object" && x !== null && !Array.isArray(x);
    if (!isObject(responses) || !Object.values(responses as object).every(isObject)) {
      throw new ProtocolError(
        RpcCode.invalidParams,
        "Invalid params: inputResponses must be an object mapping each key to a response object",
      );
    }
  }
  if ("requestState" in params && typeof params.requestState !== "string") {
    throw new ProtocolError(RpcCode.invalidParams, "Invalid params: requestState must be the string a previous result gave");
  }
}

/** -32022 naming the versions this server speaks and echoing the one asked for. */
export function checkModernVersion(envelope: ModernEnvelope): void {
  if (isModernVersion(envelope.protocolVersion)) return;
  throw new EnvelopeError(
    RpcCode.unsupportedProtocolVersion,
    `Unsupported protocol version: ${envelope.protocolVersion}; this server speaks ${MODERN_PROTOCOL_VERSIONS.join(", ")} per request, or 2025-11-25 and earlier after initialize`,
    { data: { supported: [...MODERN_PROTOCOL_VERSIONS], requested: envelope.protocolVersion } },
  );
}

export function declaresExtension(envelope: ModernEnvelope, id: string): boolean {
  const extensions = envelope.capabilities.extensions;
  return typeof extensions === "object" && extensions !== null && id in extensions;
}

/** -32021: what the request needs the client to declare, as a ClientCapabilities object. */
export function missingCapability(what: string, required: Record<string, unknown>): ProtocolError {
  return new EnvelopeError(RpcCode.missingClientCapability, `Missing required client capability: ${what}`, {
    data: { requiredCapabilities: required },
  });
}

/** How long list-like results stay fresh (2026-07-28 "Caching"), and who may share them. */
const CACHE_HINTS: Readonly<Record<string, { ttlMs: number; cacheScope: "public" | "private" }>> = {
  // The workspace path is in the instructions and the bridge sits behind a token: private.
  "server/discover": { ttlMs: 60_000, cacheScope: "private" },
  // Changes only with the bridge (a restart, another version); listChanged invalidates sooner.
  "tools/list": { ttlMs: 60_000, cacheScope: "private" },
  "prompts/list": { ttlMs: 60_000, cacheScope: "private" },
  "resources/list": { ttlMs: 60_000, cacheScope: "private" },
  "resources/templates/list": { ttlMs: 60_000, cacheScope: "private" },
  // The workflows change only with the bridge's version.
  "skills/list": { ttlMs: 60_000, cacheScope: "private" },
  "skills/get": { ttlMs: 60_000, cacheScope: "private" },
  // File contents change under the client's feet: fresh once, never shared.
  "resources/read": { ttlMs: 0, cacheScope: "private" },
};

/** The core's result in this revision's shape: resultType, serverInfo, caching hints. */
export function modernResult(method: string, result: Params): Params {
  const meta = typeof result._meta === "object" && result._meta !== null ? (result._meta as Params) : {};
  const out: Params = { resultType: "complete", ...result, _meta: { ...meta, [META_SERVER_INFO]: { ...SERVER_INFO } } };
  const hints = CACHE_HINTS[method];
  if (hints !== undefined && out.resultType === "complete") {
    out.ttlMs ??= hints.ttlMs;
    out.cacheScope ??= hints.cacheScope;
  }
  return out;
}

/** The core's error in this revision's codes: resource not found became invalid params. */
export function modernError(err: ProtocolError): ProtocolError {
  if (err.code !== RpcCode.resourceNotFound) return err;
  return new ProtocolError(RpcCode.invalidParams, err.message, { data: err.data });
}

/** server/discover's answer (before modernResult adds resultType and the rest). */
export function discoverResult(instructions: string | undefined): Params {
  const base = serverCapabilities();
  const capabilities: Params = { ...base, extensions: { ...base.extensions, [TASKS_EXTENSION]: {} } };
  const result: Params = { supportedVersions: [...MODERN_PROTOCOL_VERSIONS], capabilities };
  if (instructions) result.instructions = instructions;
  return result;
}

/** Methods this revision removed; asked for with a modern envelope they are unknown (-32601). */
export const REMOVED_IN_MODERN = new Set(["initialize", "ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe"]);
