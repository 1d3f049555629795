// Where a warm call's time goes inside the bridge: the real bridge process run under
// `node --cpu-prof` (NODE_OPTIONS refuses it), the bench's MCP client (Streamable HTTP) calling
// goToDefinition CIB_PROFILE_CALLS times (default 400) on a 100-file project, each answer checked,
// then the profile summed by function (self time) and by the bridge's own source files.
// CIB_PROFILE_CALL=findReferences profiles findReferences of `shared` (201 references) instead,
// CIB_PROFILE_CALL=noop the no-op tool getWorkspaceFolders, and CIB_PROFILE_CALL=ws-ping an MCP ping
// on the Claude Code WebSocket (bench/ws-ping.mjs's path).
// Usage: npm run build && node bench/lsp-profile.mjs   (the .cpuprofile is kept; its path is printed)
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import WebSocket from "ws";
import { printTop, readProfile, selfTimes } from "./cpu-profile.mjs";

const CALLS = Number(process.env.CIB_PROFILE_CALLS ?? 400);
const REPO = new URL("..", import.meta.url).pathname;
const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js");

const root = await realpath(await mkdtemp(join(tmpdir(), "bench-lsp-prof-")));
await writeFile(
  join(root, "tsconfig.json"),
  JSON.stringify({ compilerOptions: { strict: true, module: "nodenext", noEmit: true }, include: ["src"] }),
);
await mkdir(join(root, "src"), { recursive: true });
await writeFile(join(root, "src", "core.ts"), "export function shared(n: number): number {\n  return n + 1;\n}\n");
for (let i = 0; i < 100; i++) {
  await mkdir(join(root, "src", `m${i % 50}`), { recursive: true });
  await writeFile(
    join(root, "src", `m${i % 50}`, `use${i}.ts`),
    `import { shared } from "../core.js";\nexport const v${i} = shared(${i});\n`,
  );
}
const profDir = await mkdtemp(join(tmpdir(), "bench-lsp-cpuprof-"));
const config = await mkdtemp(join(tmpdir(), "bench-lsp-cfg-"));
const token = randomBytes(24).toString("hex");
const bridge = spawn(
  process.execPath,
  [
    "--cpu-prof",
    "--cpu-prof-dir",
    profDir,
    join(REPO, "bin", "claude-ide-bridge.js"),
    "--workspace",
    root,
    "--port",
    "0",
    "--fixed-token",
    token,
    "--tool-rate-limit",
    "10000",
    "--request-rate-limit",
    "100000",
  ],
  {
    cwd: REPO,
    env: { ...process.env, CLAUDE_CONFIG_DIR: config },
    stdio: ["ignore", "ignore", "pipe"],
  },
);
let stderr = "";
const port = await new Promise((resolve, reject) => {
  bridge.stderr.setEncoding("utf8").on("data", (d) => {
    stderr += d;
    const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(stderr);
    if (m) resolve(Number(m[1]));
  });
  bridge.once("exit", (code) => reject(new Error(`bridge exited (${code}): ${stderr}`)));
});
let wsClose;
const client = new Client({ name: "bench-lsp-profile", version: "0" });
await client.connect(
  new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  }),
);
const callTool = async (name, args, expect) => {
  const result = await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 });
  const text = result.content?.[0]?.text ?? "";
  if (result.isError || !expect(text)) throw new Error(`unexpected answer: ${text.slice(0, 200)}`);
};
const which = process.env.CIB_PROFILE_CALL ?? "goToDefinition";
const CALLS_OF = {
  goToDefinition: () =>
    callTool(
      "goToDefinition",
      { file: "src/m1/use1.ts", line: 2, symbol: "shared", verbosity: "minimal" },
      (text) => text.startsWith("1 definition of `shared`") && text.includes("src/core.ts:1:17"),
    ),
  findReferences: () =>
    callTool("findReferences", { file: "src/core.ts", line: 1, symbol: "shared", verbosity: "minimal", maxResults: 500 }, (text) =>
      text.startsWith("201 references"),
    ),
  // The no-op floor of bench/mcp-http.mjs: a tool that does no I/O.
  noop: () => callTool("getWorkspaceFolders", {}, (text) => text.includes(root)),
  "ws-ping": await wsPinger(),
};
const call = CALLS_OF[which];
if (call === undefined) throw new Error(`CIB_PROFILE_CALL: one of ${Object.keys(CALLS_OF).join(", ")}`);
// Warm: the server started and the file open before the profiled calls count.
for (let i = 0; i < 20; i++) await call();
const t0 = performance.now();
for (let i = 0; i < CALLS; i++) await call();
const wallMs = performance.now() - t0;
await client.close();
await wsClose?.();
bridge.kill("SIGTERM");
await new Promise((resolve) => bridge.once("exit", resolve));
await rm(root, { recursive: true, force: true });
await rm(config, { recursive: true, force: true });

const { path, profile } = await readProfile(profDir);
const { totalMs, idleMs, byFunction } = selfTimes(profile, { repo: REPO });
const r2 = (x) => Math.round(x * 100) / 100;
console.log(
  `${CALLS} ${which} calls in ${r2(wallMs)} ms wall (${r2(wallMs / CALLS)} ms each); bridge profile ${r2(totalMs)} ms, idle ${r2(idleMs)} ms, busy ${r2((totalMs - idleMs) / CALLS)} ms per call (startup and warm-up included)`,
);
printTop("self time by function (top 40):", byFunction, 40);
console.log(`profile: ${path}`);
const timings = stderr
  .split("\n")
  .filter((l) => l.startsWith("TIMING "))
  .map((l) => JSON.parse(l.slice(7)));
if (timings.length > 0) {
  const med = (k) => [...timings.map((t) => t[k])].sort((a, b) => a - b)[Math.floor(timings.length / 2)];
  console.log("median ms per segment:", JSON.stringify(Object.fromEntries(Object.keys(timings[0]).map((k) => [k, r2(med(k))]))));
}

/** A ping over the Claude Code WebSocket, initialized first; undefined unless that is what is profiled. */
async function wsPinger() {
  if (process.env.CIB_PROFILE_CALL !== "ws-ping") return undefined;
  const ws = new WebSocket(`ws://127.0.0.1:${port}/`, ["mcp"], { headers: { "x-claude-code-ide-authorization": token } });
  await new Promise((resolve, reject) => {
    ws.once("open", resolve);
    ws.once("error", reject);
  });
  let id = 0;
  const roundTrip = (message) =>
    new Promise((resolve) => {
      ws.once("message", (data) => resolve(JSON.parse(String(data))));
      ws.send(JSON.stringify({ jsonrpc: "2.0", id: ++id, ...message }));
    });
  const params = { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench-ws", version: "0" } };
  if (!(await roundTrip({ method: "initialize", params })).result) throw new Error("initialize failed");
  ws.send(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
  wsClose = () => ws.close();
  return async () => {
    const answer = await roundTrip({ method: "ping" });
    if (answer.id !== id || answer.result === undefined) throw new Error(`ping: ${JSON.stringify(answer)}`);
  };
}
