// The initialize answer the shim gives for a bridge it is starting (src/startup/predicted-initialize.ts)
// must be the one that bridge gives: here against the bridge's own parts (its CLI flag parser, the
// registry of the manifest's tools, its instructions, the legacy codec's negotiate) for each toolset
// flag the prediction reads, and server/discover against the modern codec; and no prediction
// wherever the bridge's answer could differ.
// test/e2e/shim-early-initialize.test.ts compares the two through real processes.
import { describe, expect, it } from "vitest";
import { parseCli } from "../../../src/config/cli.ts";
import { negotiate } from "../../../src/mcp/protocol/revisions/legacy.ts";
import {
  checkModernVersion,
  checkRoundTripFields,
  discoverResult,
  modernResult,
  readEnvelope,
} from "../../../src/mcp/protocol/revisions/modern.ts";
import { predictedDiscoverResult, predictedInitializeResult, predictIdentity } from "../../../src/startup/predicted-initialize.ts";
import { parseManifest, stubToolsets } from "../../../src/startup/tool-manifest.ts";
import { TOOL_LINES, TOOLSET_PURPOSES } from "../../../src/startup/tool-manifest.generated.ts";
import { IDE_LINK_SET } from "../../../src/startup/toolset-loaders.ts";
import { buildInstructions } from "../../../src/tools/platform/instructions.ts";
import { ToolRegistry } from "../../../src/tools/platform/registry.ts";

const ROOT = "/home/someone/projects/web app";
const served = stubToolsets(parseManifest(TOOLSET_PURPOSES, TOOL_LINES), {
  run: () => Promise.reject(new Error("not run here")),
  liveOutput: () => undefined,
}).filter((t) => t.name !== IDE_LINK_SET);
const PARAMS = { protocolVersion: "2025-06-18", capabilities: { roots: {} }, clientInfo: { name: "claude-code", version: "2.1.300" } };

/** What the bridge started with these flags answers (src/startup/core-services.ts and src/bridge.ts, in short). */
function bridgeAnswer(args: string[], params: unknown): unknown {
  const parsed = parseCli(["--workspace", ROOT, "--port", "0", ...args]);
  if (parsed.kind !== "run") throw new Error(`not a run: ${parsed.kind}`);
  const { toolsets, excludeToolsets, profile, slim } = parsed.flags;
  const registry = new ToolRegistry(served, { slim: slim ?? false, toolsets, excludeToolsets, profile, maxResultChars: 400_000 });
  return negotiate(params as Record<string, unknown>, buildInstructions(registry.toolsets, { root: ROOT })).result;
}

const predicted = (args: string[], params: unknown = PARAMS, env: Record<string, string> = {}) => {
  const identity = predictIdentity({ root: ROOT, bridgeArgs: args, env });
  return identity && predictedInitializeResult(params, identity);
};

describe("the initialize answer predicted for a bridge being started", () => {
  it.each([
    ["no flags", []],
    ["toolsets turned off", ["--exclude-toolsets", "git,debug", "--exclude-toolsets=github"]],
    ["only some toolsets", ["--toolsets", "search, edit"]],
    ["--slim", ["--slim", "--verbose"]],
    ["--profile vscode", ["--profile=vscode"]],
    ["toolsets off and --slim", ["--exclude-toolsets", "files", "--slim", "--allow-git-hooks"]],
  ])("is the bridge's, with %s", (_, args) => {
    const answer = predicted(args);
    expect(answer).toBeDefined();
    expect(JSON.stringify(answer)).toBe(JSON.stringify(bridgeAnswer(args, PARAMS)));
  });

  it("negotiates the version as the bridge does, and differs between configurations", () => {
    const old = { ...PARAMS, protocolVersion: "2024-11-05" };
    expect(predicted([], old)).toEqual(bridgeAnswer([], old));
    const future = { ...PARAMS, protocolVersion: "2099-01-01" };
    expect(predicted([], future)).toEqual(bridgeAnswer([], future));
    const instructions = (args: string[]) => String(predicted(args)?.instructions);
    expect(instructions([])).toContain("- git:");
    expect(instructions(["--exclude-toolsets", "git"])).not.toContain("- git:");
  });

  it.each([
    ["a flag it does not read", ["--plugin", "./my-plugin"], {}],
    ["a flag the bridge refuses", ["--no-such-flag"], {}],
    ["an unknown toolset", ["--toolsets", "nonsense"], {}],
    ["a flag without its value", ["--toolsets"], {}],
    ["a value given to a switch", ["--slim=yes"], {}],
    ["another workspace", ["--workspace", "/elsewhere"], {}],
    ["a config file", [], { CLAUDE_IDE_BRIDGE_CONFIG: "/etc/bridge.json" }],
    ["a token from the environment", [], { CLAUDE_IDE_BRIDGE_TOKEN: "short" }],
  ])("is not made with %s: the bridge answers", (_, args, env) => {
    expect(predictIdentity({ root: ROOT, bridgeArgs: args, env })).toBeUndefined();
  });

  it.each([
    ["no protocolVersion", { capabilities: {} }],
    ["capabilities that are not an object", { protocolVersion: "2025-11-25", capabilities: [] }],
    ["clientInfo without a name", { protocolVersion: "2025-11-25", clientInfo: { version: "1" } }],
    ["params that are not an object", ["2025-11-25"]],
  ])("leaves an initialize with %s to the bridge", (_, params) => {
    expect(predicted([], params)).toBeUndefined();
  });
});

describe("the server/discover answer predicted for a bridge being started", () => {
  const envelope = (meta: Record<string, unknown>) => ({ _meta: meta });
  const VALID = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": { name: "claude-code", version: "2.1.300" },
    "io.modelcontextprotocol/logLevel": "info",
  };
  /** What src/mcp/sessions/modern-requests.ts answers: the envelope checked, then the codec's shape. */
  const bridgeDiscover = (args: string[], params: Record<string, unknown>) => {
    checkModernVersion(readEnvelope(params));
    checkRoundTripFields(params);
    const instructions = String((bridgeAnswer(args, PARAMS) as { instructions: string }).instructions);
    return modernResult("server/discover", discoverResult(instructions));
  };
  const identity = (args: string[]) => predictIdentity({ root: ROOT, bridgeArgs: args, env: {} });

  it.each([
    ["no flags", []],
    ["toolsets turned off", ["--exclude-toolsets", "git,debug"]],
  ])("is the bridge's, with %s", (_, args) => {
    const id = identity(args);
    if (id === undefined) throw new Error("no prediction");
    expect(JSON.stringify(predictedDiscoverResult(envelope(VALID), id))).toBe(JSON.stringify(bridgeDiscover(args, envelope(VALID))));
  });

  it.each([
    ["no _meta", {}],
    ["another protocol version", envelope({ ...VALID, "io.modelcontextprotocol/protocolVersion": "2025-11-25" })],
    ["no client capabilities", envelope({ "io.modelcontextprotocol/protocolVersion": "2026-07-28" })],
    ["clientInfo without a version", envelope({ ...VALID, "io.modelcontextprotocol/clientInfo": { name: "x" } })],
    ["an unknown log level", envelope({ ...VALID, "io.modelcontextprotocol/logLevel": "loud" })],
    ["round-trip fields", { ...envelope(VALID), requestState: "x" }],
  ])("leaves a probe with %s to the bridge", (_, params) => {
    const id = identity([]);
    if (id === undefined) throw new Error("no prediction");
    expect(predictedDiscoverResult(params, id)).toBeUndefined();
  });
});
