// Tools whose work is one command or one write, against that command or write alone, in one run on
// this repository (a real npm project): getDependencyTree against `npm ls --json --depth=1`, and
// createFile against the no-op tools/call floor (getWorkspaceFolders) plus writing the same bytes
// with node:fs: what a call that only writes cannot go below; and against the floor plus the write
// the bridge makes (O_EXCL, write, fsync, close: a created file is on disk when the answer says so),
// with no language server running and then with TypeScript's server running on this repository
// (createFile must not wait for it to reload the project the new file joins: a .ts file against a .txt one
// that no server reads, the same call with the same fsync). Each side takes turns
// so the machine's noise hits all alike; medians of RUNS. The bridge's side includes its MCP call over HTTP.
// Usage: npm run build && node bench/slow-tools.mjs [runs=7]   (BENCH_JSON=1 adds a JSON line for bench/all.mjs)
import { spawnSync } from "node:child_process";
import { closeSync, fsyncSync, openSync, rmSync, writeFileSync, writeSync } from "node:fs";
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
  const create = { tool: [], raw: [], synced: [] };
  const createServed = { tool: [], raw: [], synced: [] };
  /** One createFile against the floor plus a plain write and the floor plus a write made durable, taking turns. */
  const createOnce = async (into, name) => {
    const floor = await call("getWorkspaceFolders", {});
    into.raw.push(floor + timed(() => writeFileSync(join(root, `${name}.raw`), content)));
    rmSync(join(root, `${name}.raw`));
    into.synced.push(floor + timed(() => durableWrite(join(root, `${name}.synced`), content)));
    rmSync(join(root, `${name}.synced`));
    into.tool.push(await call("createFile", { filePath: name, content }));
    rmSync(join(root, name));
  };
  await call("getDependencyTree", {});
  for (let i = 0; i < runs; i++) {
    tree.raw.push(timed(() => spawnSync("npm", ["ls", "--json", "--depth=1"], { cwd: root, stdio: "ignore" })));
    tree.tool.push(await call("getDependencyTree", {}));
    await createOnce(create, `bench-created-${process.pid}-${i}.ts`);
  }
  // TypeScript's server started on this repository: each new .ts file makes it reload the project.
  await call("getHover", { file: "src/errors.ts", line: 1, column: 1 }).catch(() => 0);
  // The same call for a file no server reads (.txt), taking turns: what createFile adds for a .ts file
  // with the server running is what it waits on the server for, the disk's fsync cancelling out.
  const createPlain = { tool: [] };
  for (let i = 0; i < runs; i++) {
    await createOnce(createServed, `src/bench-created-${process.pid}-${i}.ts`);
    createPlain.tool.push(await call("createFile", { filePath: `src/bench-created-${process.pid}-${i}.txt`, content }));
    rmSync(join(root, `src/bench-created-${process.pid}-${i}.txt`));
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
  report("createFile (no server running)", { tool: create.tool, raw: create.synced }, "no-op call + write + fsync", "<= 1.5");
  report(
    "createFile (TypeScript server running)",
    { tool: createServed.tool, raw: createServed.synced },
    "no-op call + write + fsync",
    "<= 1.5",
  );
  report(
    "createFile .ts (TypeScript server running)",
    { tool: createServed.tool, raw: createPlain.tool },
    "createFile .txt, same server",
    "<= 1.5",
  );
} finally {
  await client.close().catch(() => {});
  await bridge.stop();
  await stopAllBridges();
}
if (process.env.BENCH_JSON === "1") console.log(`BENCH_ROWS ${JSON.stringify(rows)}`);

/** The write the bridge makes for a new file (runtime/shared/fs-handles.ts, createExclusive). */
function durableWrite(path, data) {
  const fd = openSync(path, "wx");
  try {
    writeSync(fd, data);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
