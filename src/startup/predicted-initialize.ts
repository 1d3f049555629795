// The answer to `initialize` (and to `server/discover`) that a bridge about to start will give, computed without it: the shim
// that starts a bridge answers the client's initialize with it at once instead of waiting for the
// bridge (half a second and more of Node start-up), then replays the initialize to the bridge. It is
// the bridge's own answer only when the bridge's configuration is known here: the flags the shim
// passes, read by the same rules as the bridge's (src/config/cli.ts), and no config file. For
// anything else (a flag that is not read here, a config file, a malformed request) there is no
// prediction, and the shim waits for the bridge as before. Web-standard only: the shim imports it.
import { negotiateVersion } from "../mcp/protocol/versions.ts";
import { SERVER_INFO, serverCapabilities } from "../mcp/protocol/server-identity.ts";
import { buildInstructions } from "../tools/platform/instructions.ts";
import { selectToolsets, type ToolsetChoice } from "../tools/platform/toolset-selection.ts";
import { BRIDGE_PROTOCOL_VERSION } from "../version.ts";
import { TOOL_INDEX } from "./tool-index.generated.ts";
import { IDE_LINK_SET } from "./toolset-loaders.ts";

/** What the bridge's initialize answer depends on besides the request: its instructions. */
export interface PredictedIdentity {
  readonly instructions: string;
}

/** Flags that change nothing of the initialize answer and that a bridge cannot refuse. */
const NEUTRAL_BOOLS = new Set([
  "--verbose",
  "--jsonl",
  "--allow-push-to-main",
  "--allow-git-dir-writes",
  "--allow-git-hooks",
  "--allow-private-http",
  "--allow-vscode-dir-writes",
]);
const PROFILES = new Set(["vscode", "windsurf"]);
/** Either names a file whose contents are read only by the bridge, or a token it may refuse. */
const UNREADABLE_ENV = ["CLAUDE_IDE_BRIDGE_CONFIG", "CLAUDE_IDE_BRIDGE_TOKEN"];

/**
 * The identity of the bridge that `bridgeArgs` (the flags after the shim's own, which the shim passes
 * on) start for `root`, or undefined when it cannot be known here.
 */
export function predictIdentity(opts: {
  root: string;
  bridgeArgs: readonly string[];
  env: Readonly<Record<string, string | undefined>>;
}): PredictedIdentity | undefined {
  if (UNREADABLE_ENV.some((name) => (opts.env[name] ?? "") !== "")) return undefined;
  const choice = toolsetChoice(opts.bridgeArgs);
  if (choice === undefined) return undefined;
  // As src/startup/lazy-toolsets.ts serves them: the manifest's order, without the IDE link's own.
  const served = TOOL_INDEX.filter((t) => t.name !== IDE_LINK_SET).map((t) => ({
    name: t.name,
    purpose: t.purpose,
    tools: t.tools.map((name) => ({ name, slim: t.slim.includes(name) })),
  }));
  try {
    return { instructions: buildInstructions(selectToolsets(served, choice).toolsets, { root: opts.root }) };
  } catch {
    // An unknown toolset or a profile the tools do not fit: the bridge refuses to start, and says why.
    return undefined;
  }
}

/**
 * The bridge's InitializeResult for these params (src/mcp/protocol/revisions/legacy.ts), or
 * undefined for params it would refuse or that are read differently there: the bridge answers those.
 */
export function predictedInitializeResult(params: unknown, identity: PredictedIdentity): Record<string, unknown> | undefined {
  if (!isPlainObject(params) || typeof params.protocolVersion !== "string") return undefined;
  if (params.capabilities !== undefined && !isPlainObject(params.capabilities)) return undefined;
  const client = params.clientInfo;
  if (client !== undefined) {
    if (!isPlainObject(client) || typeof client.name !== "string") return undefined;
    if (client.version !== undefined && typeof client.version !== "string") return undefined;
  }
  const result: Record<string, unknown> = {
    protocolVersion: negotiateVersion(params.protocolVersion),
    capabilities: serverCapabilities(),
    serverInfo: { ...SERVER_INFO },
    _meta: { bridgeProtocolVersion: BRIDGE_PROTOCOL_VERSION },
  };
  if (identity.instructions) result.instructions = identity.instructions;
  return result;
}

const MODERN_VERSION = "2026-07-28";
const LOG_LEVELS = new Set(["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"]);

/**
 * The bridge's answer to the MCP 2026-07-28 probe `server/discover` (src/mcp/sessions/modern-requests.ts:
 * discoverResult in modernResult's shape), or undefined for a request whose envelope it would refuse
 * or read differently (src/mcp/protocol/revisions/modern.ts, readEnvelope): the bridge answers those.
 */
export function predictedDiscoverResult(params: unknown, identity: PredictedIdentity): Record<string, unknown> | undefined {
  if (!isPlainObject(params) || "inputResponses" in params || "requestState" in params) return undefined;
  const meta = params._meta;
  if (!isPlainObject(meta) || meta["io.modelcontextprotocol/protocolVersion"] !== MODERN_VERSION) return undefined;
  if (!isPlainObject(meta["io.modelcontextprotocol/clientCapabilities"])) return undefined;
  const client = meta["io.modelcontextprotocol/clientInfo"];
  if (client !== undefined && !(isPlainObject(client) && typeof client.name === "string" && typeof client.version === "string"))
    return undefined;
  const level = meta["io.modelcontextprotocol/logLevel"];
  if (level !== undefined && !(typeof level === "string" && LOG_LEVELS.has(level))) return undefined;
  const token = meta.progressToken;
  if (token !== undefined && typeof token !== "string" && typeof token !== "number") return undefined;
  const base = serverCapabilities();
  const result: Record<string, unknown> = {
    resultType: "complete",
    supportedVersions: [MODERN_VERSION],
    capabilities: { ...base, extensions: { ...base.extensions, "io.modelcontextprotocol/tasks": {} } },
  };
  if (identity.instructions) result.instructions = identity.instructions;
  return { ...result, _meta: { "io.modelcontextprotocol/serverInfo": { ...SERVER_INFO } }, ttlMs: 60_000, cacheScope: "private" };
}

/** --toolsets, --exclude-toolsets, --slim and --profile as the bridge reads them, or undefined for any other flag. */
function toolsetChoice(args: readonly string[]): ToolsetChoice | undefined {
  const choice: { toolsets?: string[]; excludeToolsets?: string[]; slim?: boolean; profile?: "vscode" | "windsurf" } = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? "";
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const name = eq === -1 ? arg : arg.slice(0, eq);
    if (NEUTRAL_BOOLS.has(name) || name === "--slim") {
      if (eq !== -1) return undefined;
      if (name === "--slim") choice.slim = true;
      continue;
    }
    if (name !== "--toolsets" && name !== "--exclude-toolsets" && name !== "--profile") return undefined;
    const value = eq !== -1 ? arg.slice(eq + 1) : args[++i];
    if (value === undefined || (eq === -1 && value.startsWith("-"))) return undefined;
    if (name === "--profile") {
      if (!PROFILES.has(value)) return undefined;
      choice.profile = value as "vscode" | "windsurf";
      continue;
    }
    const names = value.split(",").map((n) => n.trim());
    if (names.some((n) => !/^[a-z][a-z-]*$/.test(n))) return undefined;
    const key = name === "--toolsets" ? "toolsets" : "excludeToolsets";
    choice[key] = [...(choice[key] ?? []), ...names];
  }
  return choice;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
