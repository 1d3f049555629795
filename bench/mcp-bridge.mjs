// The benchmarks' bridge: the real bridge process on a workspace (test/helpers/spawn-bridge.ts,
// its rate limits lifted so the bench measures calls, not refusals) and the SDK client over
// Streamable HTTP. The caller registers tsx first (the helper is TypeScript).
const { startBridgeProcess } = await import(new URL("../test/helpers/spawn-bridge.ts", import.meta.url).href);
const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js");

/** `callTool(name, args)` gives the SDK's result as it came (an error result too). */
export async function benchBridge(root, { name, timeoutMs }) {
  const bridge = await startBridgeProcess({ workspace: root, args: ["--tool-rate-limit", "10000", "--request-rate-limit", "100000"] });
  const client = new Client({ name, version: "0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(bridge.mcpUrl), { requestInit: { headers: { Authorization: `Bearer ${bridge.token}` } } }),
  );
  return {
    pid: bridge.proc.pid,
    callTool: (tool, args) => client.callTool({ name: tool, arguments: args }, undefined, { timeout: timeoutMs }),
    stop: async () => {
      await client.close();
      await bridge.stop();
    },
  };
}

/** The text of a call's answer; throws on an error result. */
export async function callText(bridge, tool, args) {
  return (await checkedCall(bridge, tool, args)).content[0].text;
}

/** `callTool` that throws on an error result. */
export async function checkedCall(bridge, tool, args) {
  const result = await bridge.callTool(tool, args);
  if (result.isError) throw new Error(`${tool}: ${JSON.stringify(result.content)}`);
  return result;
}

/** `file:line` of each location line (`file:line:column`) of a minimal findReferences answer. */
export function locationLines(text) {
  const found = new Set();
  for (const line of text.split("\n")) {
    const m = /^([^\s:][^:]*):(\d+):\d+$/.exec(line.trim());
    if (m) found.add(`${m[1]}:${m[2]}`);
  }
  return found;
}
