// Warm goToDefinition and getHover through the bridge vs the same language server asked directly,
// for Python (pyright), Go (gopls) and C (clangd with a compile database): bench/lsp.mjs does
// TypeScript. Per language a small project shaped like a real one (a module and a user of it), the
// bridge (Streamable HTTP, the SDK client) and a second copy of the server the bridge would start
// (same command and arguments, its configuration requests answered with the bridge's settings) up
// at once, each warmed until it answers, then the bridge's call, the server's request and the
// no-op floor (getWorkspaceFolders) taking turns call by call; medians of RUNS (default 100). The
// ratio is against the server's time plus the floor; a language whose server is not installed is
// reported as skipped.
// Usage: npm run build && node bench/lsp-languages.mjs   (BENCH_LSP_RUNS=N, BENCH_LSP_LANGUAGES=python,go,c, BENCH_JSON=1)
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { register } from "tsx/esm/api";
import { takingTurns } from "./timing.mjs";

register();
const { stopAllBridges } = await import(new URL("../test/helpers/spawn-bridge.ts", import.meta.url).href);
const { benchBridge, callText } = await import("./mcp-bridge.mjs");
const { startDirectServer } = await import("./lsp-direct.mjs");

const RUNS = Number(process.env.BENCH_LSP_RUNS ?? 100);
const WARMUP = Math.max(3, Math.min(20, Math.round(RUNS / 5)));
const READY_TIMEOUT_MS = 120_000;
const PYRIGHT = new URL("../node_modules/pyright/langserver.index.js", import.meta.url).pathname;

const onPath = (cmd) => {
  try {
    return execFileSync("sh", ["-c", `command -v ${cmd}`], { encoding: "utf8" }).trim() || undefined;
  } catch {
    return undefined;
  }
};

/**
 * Each language: its files, the server as the bridge starts it (src/lsp/server-specs.ts), the
 * answers to its configuration requests, and where the symbol is used (1-based line, the name).
 */
const LANGUAGES = {
  python: {
    name: "Python",
    languageId: "python",
    command: () => [process.execPath, PYRIGHT, "--stdio"],
    settings: { python: {}, "python.analysis": { diagnosticMode: "openFilesOnly", autoSearchPaths: true, logLevel: "Information" } },
    files: {
      "pyrightconfig.json": JSON.stringify({ include: ["pkg"] }),
      "pkg/__init__.py": "",
      "pkg/core.py": "def shared(n: int) -> int:\n    return n + 1\n",
      "pkg/use1.py": "from pkg.core import shared\n\nv1 = shared(1)\n",
    },
    use: { file: "pkg/use1.py", line: 3, symbol: "shared" },
  },
  go: {
    name: "Go",
    languageId: "go",
    command: () => {
      const gopls = onPath("gopls");
      return gopls && [gopls];
    },
    settings: {},
    files: {
      "go.mod": "module bench\n\ngo 1.19\n",
      "core/core.go": "package core\n\n// Shared adds one.\nfunc Shared(n int) int {\n\treturn n + 1\n}\n",
      "use/use.go": 'package use\n\nimport "bench/core"\n\nvar V1 = core.Shared(1)\n',
    },
    use: { file: "use/use.go", line: 5, symbol: "Shared" },
  },
  c: {
    name: "C",
    languageId: "c",
    command: () => {
      const clangd = onPath("clangd");
      return clangd && [clangd, "--background-index", "--log=error"];
    },
    settings: {},
    files: {
      "core.h": "/* Adds one. */\nint shared(int n);\n",
      "core.c": '#include "core.h"\nint shared(int n) { return n + 1; }\n',
      "use.c": '#include "core.h"\nint v1(void) { return shared(1); }\n',
    },
    compileDatabase: ["core.c", "use.c"],
    use: { file: "use.c", line: 2, symbol: "shared" },
  },
};

async function project(lang) {
  const root = await realpath(await mkdtemp(join(tmpdir(), `bench-lsp-${lang.languageId}-`)));
  for (const [file, text] of Object.entries(lang.files)) {
    await mkdir(dirname(join(root, file)), { recursive: true });
    await writeFile(join(root, file), text);
  }
  if (lang.compileDatabase)
    await writeFile(
      join(root, "compile_commands.json"),
      JSON.stringify(lang.compileDatabase.map((file) => ({ directory: root, file, arguments: ["cc", "-c", file] }))),
    );
  return root;
}

async function bridgeClient(root) {
  const bridge = await benchBridge(root, { name: "bench-lsp-languages", timeoutMs: READY_TIMEOUT_MS });
  return { call: (name, args) => callText(bridge, name, args), stop: bridge.stop };
}

async function directServer(lang, root, command) {
  const { connection, doc, text, stop } = await startDirectServer(command, {
    root,
    open: lang.use.file,
    languageId: lang.languageId,
    configuration: (section) => lang.settings[section] ?? null,
    capabilities: { workspace: { configuration: true }, textDocument: { hover: { contentFormat: ["markdown", "plaintext"] } } },
  });
  const line = lang.use.line - 1;
  const at = { textDocument: { uri: doc }, position: { line, character: text.split("\n")[line].indexOf(lang.use.symbol) } };
  return {
    definition: () => connection.sendRequest("textDocument/definition", at),
    hover: () => connection.sendRequest("textDocument/hover", at),
    stop,
  };
}

/** Calls `fn` until `answered(result)`: a server answers with nothing until it has loaded the project. */
async function untilAnswered(fn, answered, what) {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    const result = await fn().catch((err) => err);
    if (!(result instanceof Error) && answered(result)) return;
    if (Date.now() > deadline) throw new Error(`${what}: no answer within ${READY_TIMEOUT_MS / 1000} s (last: ${String(result)})`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const r2 = (x) => Math.round(x * 100) / 100;
const rows = [];
const only = process.env.BENCH_LSP_LANGUAGES?.split(",");
for (const [key, lang] of Object.entries(LANGUAGES)) {
  if (only !== undefined && !only.includes(key)) continue;
  const command = lang.command();
  if (!command) {
    console.log(`${lang.name}: skipped, its server is not installed`);
    rows.push({ what: `warm goToDefinition (${lang.name})`, bridge: "skipped: no server", baseline: "", ratio: "", target: "<= 1.5" });
    continue;
  }
  const root = await project(lang);
  const bridge = await bridgeClient(root);
  const direct = await directServer(lang, root, command);
  try {
    const use = { ...lang.use, verbosity: "minimal" };
    const viaBridge = {
      definition: () => bridge.call("goToDefinition", use),
      hover: () => bridge.call("getHover", lang.use),
    };
    await untilAnswered(viaBridge.definition, (text) => !/no definition/i.test(text), `${lang.name} bridge`);
    await untilAnswered(direct.definition, (r) => (Array.isArray(r) ? r.length > 0 : r != null), `${lang.name} server`);
    const floor = () => bridge.call("getWorkspaceFolders", {});
    for (const call of ["definition", "hover"]) {
      const m = await takingTurns({ bridge: viaBridge[call], direct: direct[call], floor }, { runs: RUNS, warmup: WARMUP });
      const tool = call === "definition" ? "goToDefinition" : "getHover";
      console.log(
        `${lang.name} ${tool}: bridge ${r2(m.bridge)} ms vs server ${r2(m.direct)} ms (x${r2(m.bridge / m.direct)}), floor ${r2(m.floor)} ms (x${r2(m.bridge / (m.direct + m.floor))} of server + floor)`,
      );
      rows.push({
        what: `warm ${tool} (${lang.name})`,
        bridge: `${r2(m.bridge)} ms`,
        baseline: `server ${r2(m.direct)} ms + floor ${r2(m.floor)} ms`,
        ratio: r2(m.bridge / (m.direct + m.floor)),
        target: "<= 1.5",
      });
    }
  } finally {
    await bridge.stop();
    await direct.stop();
    await rm(root, { recursive: true, force: true });
  }
}
await stopAllBridges();
if (process.env.BENCH_JSON === "1") console.log(`BENCH_ROWS ${JSON.stringify(rows)}`);
