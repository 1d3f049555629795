// LSP through the bridge vs straight to the server, in one run:
//  - warm calls: goToDefinition, getHover, findReferences, renameSymbol (dry run) and organizeImports
//    (dry run), each the tool called over MCP (Streamable HTTP, the real bridge process) against the
//    request it stands on (definition, hover, references, rename, the organizeImports code action)
//    sent straight to TypeScript 7's native server (tsc --lsp, the bridge's own bundled copy) over
//    vscode-jsonrpc, both servers up at once and taking turns call by call; medians of RUNS (200)
//    after RUNS/5 (3 to 20) warm-up calls each. The ratio is against the server's time plus the
//    no-op floor (getWorkspaceFolders through the same client, taking its turn with them). The
//    bridge's findReferences and renameSymbol also check the answer against a whole-word text
//    search, which the server's request does not;
//  - a cold 2,000-file workspace: from the first findReferences call (the bridge starts the server
//    on demand) to its complete answer (the default 200 of them listed, each checked by the jail),
//    vs spawn + initialize + didOpen + references straight to the server; both see all 4,001.
// Usage: npm run build && node bench/lsp.mjs   (BENCH_LSP_RUNS=N, BENCH_LSP_WARM_ONLY=1, BENCH_JSON=1 for bench/all.mjs,
// BENCH_LSP_CALLS=references,hover for some of the warm pairs: definition, hover, references, renameDryRun, organizeImportsDryRun)
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { register } from "tsx/esm/api";
import { takingTurns } from "./timing.mjs";

register();
const { stopAllBridges } = await import(new URL("../test/helpers/spawn-bridge.ts", import.meta.url).href);
const { benchBridge, callText } = await import("./mcp-bridge.mjs");
const { startDirectServer } = await import("./lsp-direct.mjs");

const RUNS = Number(process.env.BENCH_LSP_RUNS ?? 200);
// A fifth as many warm-up calls, 3 to 20: renameSymbol takes seconds on a loaded machine.
const WARMUP = Math.max(3, Math.min(20, Math.round(RUNS / 5)));
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

async function bridgeClient(root) {
  const bridge = await benchBridge(root, { name: "bench-lsp", timeoutMs: 120_000 });
  return { call: (name, args) => callText(bridge, name, args), stop: bridge.stop };
}

async function directServer(root, file) {
  const { connection, doc, stop } = await startDirectServer([TSGO, "--lsp", "--stdio"], { root, open: file, languageId: "typescript" });
  const at = (line, character) => ({ textDocument: { uri: doc }, position: { line, character } });
  // In use1.ts `shared` is at line 2, column 19 (1-based); in core.ts at line 1, column 17.
  return {
    definition: () => connection.sendRequest("textDocument/definition", at(1, 18)),
    hover: () => connection.sendRequest("textDocument/hover", at(1, 18)),
    references: () => connection.sendRequest("textDocument/references", { ...at(0, 17), context: { includeDeclaration: true } }),
    rename: () => connection.sendRequest("textDocument/rename", { ...at(0, 17), newName: "sharedRenamed" }),
    organizeImports: () =>
      connection.sendRequest("textDocument/codeAction", {
        textDocument: { uri: doc },
        range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
        context: { diagnostics: [], only: ["source.organizeImports"] },
      }),
    stop,
  };
}

const report = {};
// Warm: a 100-file project, the servers already running and the files open.
{
  const root = await project(100);
  const bridge = await bridgeClient(root);
  const use1 = { file: "src/m1/use1.ts", line: 2, symbol: "shared" };
  const core = { file: "src/core.ts", line: 1, symbol: "shared" };
  const first = await bridge.call("findReferences", { ...core, verbosity: "minimal", maxResults: 500 });
  if (!first.startsWith("201 references")) throw new Error(`unexpected: ${first.slice(0, 80)}`);
  const direct = await directServer(root, "src/m1/use1.ts");
  const coreDirect = await directServer(root, "src/core.ts");
  // The floor of any tool call through this transport: a tool that does no I/O.
  const floor = () => bridge.call("getWorkspaceFolders", {});
  const pairs = {
    definition: [() => bridge.call("goToDefinition", { ...use1, verbosity: "minimal" }), direct.definition],
    hover: [() => bridge.call("getHover", use1), direct.hover],
    references: [() => bridge.call("findReferences", { ...core, verbosity: "minimal", maxResults: 500 }), coreDirect.references],
    renameDryRun: [() => bridge.call("renameSymbol", { ...core, newName: "sharedRenamed", dryRun: true }), coreDirect.rename],
    organizeImportsDryRun: [() => bridge.call("organizeImports", { file: use1.file, dryRun: true }), direct.organizeImports],
  };
  const only = process.env.BENCH_LSP_CALLS?.split(",");
  for (const [name, [viaBridge, straight]] of Object.entries(pairs)) {
    if (only !== undefined && !only.includes(name)) continue;
    const {
      bridge: b,
      direct: d,
      floor: f,
    } = await takingTurns({ bridge: viaBridge, direct: straight, floor }, { runs: RUNS, warmup: WARMUP });
    report[`bridge_${name}Ms`] = b;
    report[`direct_${name}Ms`] = d;
    report[`floor_${name}Ms`] = f;
  }
  await bridge.stop();
  await direct.stop();
  await coreDirect.stop();
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
/** Each warm call: its row, what the server is asked, and the target against server + floor. */
const WARM = [
  ["definition", "warm goToDefinition (TypeScript)", "server"],
  ["hover", "warm getHover", "server"],
  ["references", "warm findReferences, 201 refs", "server"],
  ["renameDryRun", "renameSymbol dry run, 201 refs", "server's rename"],
  ["organizeImportsDryRun", "organizeImports dry run", "server's code action"],
];
const measured = WARM.filter(([key]) => report[`bridge_${key}Ms`] !== undefined);
for (const [key, what] of measured) {
  const [b, d, f] = [report[`bridge_${key}Ms`], report[`direct_${key}Ms`], report[`floor_${key}Ms`]];
  console.log(
    `${what}: bridge ${r2(b)} ms vs server ${r2(d)} ms (x${r2(b / d)}), floor ${r2(f)} ms (x${r2(b / (d + f))} of server + floor)`,
  );
}
if (process.env.BENCH_JSON === "1") {
  // The target: the raw server's time plus the no-op floor, times 1.5 at most.
  const rows = measured.map(([key, what, server]) => {
    const [b, d, f] = [report[`bridge_${key}Ms`], report[`direct_${key}Ms`], report[`floor_${key}Ms`]];
    return {
      what,
      bridge: `${r2(b)} ms`,
      baseline: `${server} ${r2(d)} ms + floor ${r2(f)} ms`,
      ratio: r2(b / (d + f)),
      target: "<= 1.5",
    };
  });
  console.log(`BENCH_ROWS ${JSON.stringify(rows)}`);
}
if (report.coldBridgeAnswer)
  console.log(
    `cold 2,000 files, first complete findReferences: bridge ${r2(report.coldBridgeFirstCompleteMs)} ms ("${report.coldBridgeAnswer}") vs server ${r2(report.coldDirectFirstAnswerMs)} ms (${report.coldDirectReferences} refs) (x${r2(report.coldBridgeFirstCompleteMs / report.coldDirectFirstAnswerMs)})`,
  );
