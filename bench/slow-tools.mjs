// Tools whose work is one command or one write, against that command or write alone, in one run on
// this repository (a real npm project): getDependencyTree against `npm ls --json --depth=1`, and
// createFile against the no-op tools/call floor (getWorkspaceFolders) plus writing the same bytes
// with node:fs: what a call that only writes cannot go below. Each pair takes turns so the machine's
// noise hits both alike; medians of RUNS. The bridge's side includes its MCP call over HTTP.
// Usage: npm run build && node bench/slow-tools.mjs [runs=7]   (BENCH_JSON=1 adds a JSON line for bench/all.mjs)
import { spawnSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { register } from "tsx/esm/api";
import { median } from "./timing.mjs";

register();
const { startBridgeProcess, stopAllBridges } = await import(new URL("../test/helpers/spawn-bridge.ts", import.meta.url).href);
const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js");

const root = fileURLToPath(new URL("..", import.meta.url));
const runs = Number(process.argv[2] ?? 7);
const content = "export const answer: number = 42;\n".repeat(40);

const bridge = await startBridgeProcess({ workspace: root });
const client = new Client({ name: "bench-slow-tools", version: "0" });
const rows = [];
try {
  await client.connect(
    new StreamableHTTPClientTransport(new URL(bridge.mcpUrl), { requestInit: { headers: { Authorization: `Bearer ${bridge.token}` } } }),
  );
  const call = async (name, args) => {
    const t0 = performance.now();
    const result = await client.callTool({ name, arguments: args });
    if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.content)}`);
    return performance.now() - t0;
  };
  const timed = (fn) => {
    const t0 = performance.now();
    fn();
    return performance.now() - t0;
  };
  const tree = { tool: [], raw: [] };
  const create = { tool: [], raw: [] };
  await call("getDependencyTree", {});
  for (let i = 0; i < runs; i++) {
    tree.raw.push(timed(() => spawnSync("npm", ["ls", "--json", "--depth=1"], { cwd: root, stdio: "ignore" })));
    tree.tool.push(await call("getDependencyTree", {}));
    const name = `bench-created-${process.pid}-${i}.ts`;
    const floor = await call("getWorkspaceFolders", {});
    create.raw.push(floor + timed(() => writeFileSync(join(root, `${name}.raw`), content)));
    rmSync(join(root, `${name}.raw`));
    create.tool.push(await call("createFile", { filePath: name, content }));
    rmSync(join(root, name));
  }
  const report = (what, pair, baseline, target) => {
    const [t, r] = [median(pair.tool), median(pair.raw)];
    console.log(`${what}: bridge ${t.toFixed(1)} ms, ${baseline} ${r.toFixed(1)} ms, ratio ${(t / r).toFixed(2)}x`);
    rows.push({
      what,
      bridge: `${t.toFixed(1)} ms`,
      baseline: `${baseline} ${r.toFixed(1)} ms`,
      ratio: Math.round((t / r) * 100) / 100,
      target,
    });
  };
  report("getDependencyTree (depth 1)", tree, "npm ls --json --depth=1", "<= 1.5");
  report("createFile (no server running)", create, "no-op call + write", "<= 1.5");
} finally {
  await client.close().catch(() => {});
  await bridge.stop();
  await stopAllBridges();
}
if (process.env.BENCH_JSON === "1") console.log(`BENCH_ROWS ${JSON.stringify(rows)}`);
