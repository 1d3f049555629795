// LSP through the bridge vs straight to the server, in one run:
//  - warm goToDefinition and findReferences: the tool called over MCP (Streamable HTTP, the real
//    bridge process) vs the same LSP request sent straight to TypeScript 7's native server (tsc --lsp,
//    the bridge's own bundled copy) over vscode-jsonrpc; median of 200 each, after 20 warm-up calls;
//  - a cold 2,000-file workspace: from the first findReferences call (the bridge starts the server
//    on demand) to its complete answer (the default 200 of them listed, each checked by the jail),
//    vs spawn + initialize + didOpen + references straight to the server; both see all 4,001.
// Usage: npm run build && node bench/lsp.mjs
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { register } from "tsx/esm/api";
import { medianTime } from "./timing.mjs";

register();
const { startBridgeProcess, stopAllBridges } = await import(new URL("../test/helpers/spawn-bridge.ts", import.meta.url).href);
const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js");
const { createMessageConnection, StreamMessageReader, StreamMessageWriter } = await import("vscode-jsonrpc/node");

const RUNS = 200;
const WARMUP = 20;
// The same binary the bridge runs: TypeScript 7.0.2's native compiler as a language server.
const TSGO = new URL(`../node_modules/@typescript/typescript-${process.platform}-${process.arch}/lib/tsc`, import.meta.url).pathname;

/** A project of `files` modules, each importing and calling `shared` once: 2 * files + 1 references (4,001 for 2,000). */
async function project(files) {
  const root = await realpath(await mkdtemp(join(tmpdir(), `bench-lsp-${files}-`)));
  await writeFile(
    join(root, "tsconfig.json"),
    JSON.stringify({ compilerOptions: { strict: true, module: "nodenext", noEmit: true }, include: ["src"] }),
  );
  await mkdir(join(root, "src"), { recursive: true });
  await writeFile(join(root, "src", "core.ts"), "export function shared(n: number): number {\n  return n + 1;\n}\n");
  for (let i = 0; i < files; i++) {
    await mkdir(join(root, "src", `m${i % 50}`), { recursive: true });
    await writeFile(
      join(root, "src", `m${i % 50}`, `use${i}.ts`),
      `import { shared } from "../core.js";\nexport const v${i} = shared(${i});\n`,
    );
  }
  return root;
}

const timed = (fn) => medianTime(fn, { runs: RUNS, warmup: WARMUP });

async function bridgeClient(root) {
  const bridge = await startBridgeProcess({ workspace: root, args: ["--tool-rate-limit", "10000", "--request-rate-limit", "100000"] });
  const client = new Client({ name: "bench-lsp", version: "0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(bridge.mcpUrl), { requestInit: { headers: { Authorization: `Bearer ${bridge.token}` } } }),
  );
  const call = async (name, args) => {
    const result = await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 });
    if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.content)}`);
    return result.content[0].text;
  };
  return {
    call,
    stop: async () => {
      await client.close();
      await bridge.stop();
    },
  };
}

async function directServer(root, file) {
  const child = spawn(TSGO, ["--lsp", "--stdio"], { cwd: root, stdio: ["pipe", "pipe", "ignore"] });
  const connection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  connection.onRequest((method, params) => (method === "workspace/configuration" ? params.items.map(() => null) : null));
  connection.listen();
  const uri = `file://${root}`;
  await connection.sendRequest("initialize", {
    processId: process.pid,
    rootUri: uri,
    workspaceFolders: [{ uri, name: "bench" }],
    capabilities: {},
  });
  connection.sendNotification("initialized", {});
  const doc = `file://${join(root, file)}`;
  connection.sendNotification("textDocument/didOpen", {
    textDocument: { uri: doc, languageId: "typescript", version: 1, text: await readFile(join(root, file), "utf8") },
  });
  const at = (line, character) => ({ textDocument: { uri: doc }, position: { line, character } });
  return {
    definition: () => connection.sendRequest("textDocument/definition", at(1, 14)),
    references: () => connection.sendRequest("textDocument/references", { ...at(0, 17), context: { includeDeclaration: true } }),
    async stop() {
      await connection.sendRequest("shutdown").catch(() => {});
      connection.sendNotification("exit");
      child.kill();
    },
  };
}

const report = {};
// Warm: a 100-file project, the server already running and the file open.
{
  const root = await project(100);
  const bridge = await bridgeClient(root);
  const definition = () => bridge.call("goToDefinition", { file: "src/m1/use1.ts", line: 2, symbol: "shared", verbosity: "minimal" });
  const references = () =>
    bridge.call("findReferences", { file: "src/core.ts", line: 1, symbol: "shared", verbosity: "minimal", maxResults: 500 });
  const first = await references();
  if (!first.startsWith("201 references")) throw new Error(`unexpected: ${first.slice(0, 80)}`);
  // The floor of any tool call through this transport: a tool that does no I/O.
  report.bridgeTrivialToolMs = await timed(() => bridge.call("getWorkspaceFolders", {}));
  report.bridgeDefinitionMs = await timed(definition);
  report.bridgeReferencesMs = await timed(references);
  await bridge.stop();
  const direct = await directServer(root, "src/m1/use1.ts");
  report.directDefinitionMs = await timed(direct.definition);
  const core = await directServer(root, "src/core.ts");
  report.directReferencesMs = await timed(core.references);
  await direct.stop();
  await core.stop();
  await rm(root, { recursive: true, force: true });
}
// Cold: 2,000 files, nothing started.
if (process.env.BENCH_LSP_WARM_ONLY !== "1") {
  const root = await project(2000);
  let t0 = performance.now();
  const bridge = await bridgeClient(root);
  const bridgeStartMs = performance.now() - t0;
  t0 = performance.now();
  // As a model calls it: all 4,001 counted and checked complete, the first 200 listed (the default).
  const text = await bridge.call("findReferences", { file: "src/core.ts", line: 1, symbol: "shared", verbosity: "minimal" });
  report.coldBridgeFirstCompleteMs = performance.now() - t0;
  report.coldBridgeAnswer = text.split("\n")[0];
  report.coldBridgeProcessStartMs = bridgeStartMs;
  await bridge.stop();
  t0 = performance.now();
  const direct = await directServer(root, "src/core.ts");
  const refs = await direct.references();
  report.coldDirectFirstAnswerMs = performance.now() - t0;
  report.coldDirectReferences = refs.length;
  await direct.stop();
  await rm(root, { recursive: true, force: true });
}
await stopAllBridges();
const r2 = (x) => Math.round(x * 100) / 100;
console.log(JSON.stringify(Object.fromEntries(Object.entries(report).map(([k, v]) => [k, typeof v === "number" ? r2(v) : v])), null, 2));
console.log(`MCP floor (getWorkspaceFolders through the same client): ${r2(report.bridgeTrivialToolMs)} ms`);
console.log(
  `warm goToDefinition: bridge ${r2(report.bridgeDefinitionMs)} ms vs server ${r2(report.directDefinitionMs)} ms (x${r2(report.bridgeDefinitionMs / report.directDefinitionMs)})`,
);
console.log(
  `warm findReferences (201 refs): bridge ${r2(report.bridgeReferencesMs)} ms vs server ${r2(report.directReferencesMs)} ms (x${r2(report.bridgeReferencesMs / report.directReferencesMs)})`,
);
if (process.env.BENCH_JSON === "1") {
  // The target: the raw server's time plus the no-op floor, times 1.5 at most.
  const row = (what, bridge, direct) => ({
    what,
    bridge: `${r2(bridge)} ms`,
    baseline: `server ${r2(direct)} ms + floor ${r2(report.bridgeTrivialToolMs)} ms`,
    ratio: r2(bridge / (direct + report.bridgeTrivialToolMs)),
    target: "<= 1.5",
  });
  const rows = [
    row("warm goToDefinition (TypeScript)", report.bridgeDefinitionMs, report.directDefinitionMs),
    row("warm findReferences, 201 refs", report.bridgeReferencesMs, report.directReferencesMs),
    {
      what: "warm goToDefinition vs the raw server alone",
      bridge: `${r2(report.bridgeDefinitionMs)} ms`,
      baseline: `server ${r2(report.directDefinitionMs)} ms`,
      ratio: r2(report.bridgeDefinitionMs / report.directDefinitionMs),
      target: "",
    },
  ];
  console.log(`BENCH_ROWS ${JSON.stringify(rows)}`);
}
if (report.coldBridgeAnswer)
  console.log(
    `cold 2,000 files, first complete findReferences: bridge ${r2(report.coldBridgeFirstCompleteMs)} ms ("${report.coldBridgeAnswer}") vs server ${r2(report.coldDirectFirstAnswerMs)} ms (${report.coldDirectReferences} refs) (x${r2(report.coldBridgeFirstCompleteMs / report.coldDirectFirstAnswerMs)})`,
  );
