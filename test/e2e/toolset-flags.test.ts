// --toolsets, --exclude-toolsets and --profile on the real bridge process, as .mcp.json args pass
// them (the shim hands everything after `--` to the bridge it starts): the SDK client sees only the
// chosen tools, getToolCapabilities says what is off and how to turn it on, and a wrong name stops
// the bridge with a usage error naming the real toolsets.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBridgeProcess, type BridgeProcess } from "../helpers/spawn-bridge.ts";
import { TOOLSETS } from "../../src/tools/toolsets.ts";

let bridge: BridgeProcess;
let client: Client;
let transport: StreamableHTTPClientTransport;

beforeAll(async () => {
  bridge = await startBridgeProcess({ args: ["--toolsets", "git,notes", "--exclude-toolsets=notes", "--profile", "vscode"] });
  client = new Client({ name: "e2e-toolset-flags", version: "0.0.0" });
  transport = new StreamableHTTPClientTransport(new URL(bridge.mcpUrl), {
    requestInit: { headers: { Authorization: `Bearer ${bridge.token}` } },
  });
  await client.connect(transport);
}, 60_000);

afterAll(async () => {
  await transport?.terminateSession();
  await client?.close();
  await bridge?.stop();
});

describe("toolset flags on a real bridge", () => {
  it("list only the chosen toolsets (and the bridge's own, getToolCapabilities among them)", async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    const namesOf = (set: string) => TOOLSETS.find((t) => t.name === set)?.tools.map((t) => t.name) ?? [];
    expect(namesOf("git")).toContain("getGitStatus");
    expect(namesOf("bridge")).toContain("getToolCapabilities");
    expect(names.sort()).toEqual([...namesOf("git"), ...namesOf("bridge")].sort());
  });

  it("getToolCapabilities names what is off and the flag that brings it back", async () => {
    const result = await client.callTool({ name: "getToolCapabilities", arguments: {} });
    const structured = result.structuredContent as { offByConfiguration: { toolset: string; tools: string[]; enable: string }[] };
    const off = new Map(structured.offByConfiguration.map((o) => [o.toolset, o]));
    expect(off.get("workspace")?.enable).toBe("add workspace to --toolsets");
    expect(off.get("workspace")?.tools).toContain("readFile");
    expect(off.get("notes")?.enable).toBe("remove notes from --exclude-toolsets");
    expect(off.has("git")).toBe(false);
  });

  it("an unknown toolset stops the bridge with a usage error naming the real ones", async () => {
    const bad = await startBridgeProcess({ args: ["--toolsets", "lsp"] }).then(
      async (b) => {
        await b.stop();
        return undefined;
      },
      (err: unknown) => String(err),
    );
    expect(bad).toMatch(/unknown toolset lsp; the toolsets are workspace, code-navigation/);
  }, 60_000);
});
