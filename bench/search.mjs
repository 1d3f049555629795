// searchWorkspace vs raw ripgrep on a generated tree of 50,000 files, in
// one run: the tool called through the real dispatcher (an initialized MCP session, argument
// validation, the jail, the result cap), once with rg on PATH and once with rg hidden (the built-in
// engine), against `rg --line-number <pattern> <dir>` spawned directly, output read to the end.
// Two queries: a rare identifier (a handful of files) and a common word (capped at maxResults 200;
// raw rg prints all of them). Median of RUNS after one warm-up each; the OS file cache is warm for
// all three, so the ratios compare the work done, not the disk.
// Usage: node bench/search.mjs [files]   (CIB_BENCH_RUNS=N to change the run count)
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { register } from "tsx/esm/api";
import { medianTime } from "./timing.mjs";

register();
const { dispatcher } = await import(new URL("../test/helpers/tool-dispatch.ts", import.meta.url).href);
const { createNodeRuntime } = await import(new URL("../runtime/node.ts", import.meta.url).href);

const FILES = Number(process.argv[2] ?? 50_000);
const PER_DIR = 50;
const RUNS = Number(process.env.CIB_BENCH_RUNS ?? 7);
const QUERIES = [
  { name: "rare identifier", pattern: "needleRare\\d+" },
  { name: "common word", pattern: "return" },
];

async function tree(root) {
  await writeFile(join(root, ".gitignore"), "build/\n*.log\n");
  const writes = [];
  for (let i = 0; i < FILES; i++) {
    const dir = join(root, "src", `pkg${Math.floor(i / (PER_DIR * 20))}`, `mod${Math.floor(i / PER_DIR)}`);
    if (i % PER_DIR === 0) await mkdir(dir, { recursive: true });
    const rare = i % 9973 === 0 ? `\nexport const marker${i} = "needleRare${i}";` : "";
    const body = `import { helper } from "../shared";\n\nexport function f${i}(a: number, b: number): number {\n  const sum = helper(a) + b;\n  if (sum > ${i}) {\n    return sum - ${i};\n  }\n  return sum;\n}\n${rare}\n// generated file ${i} of ${FILES}\n`;
    writes.push(writeFile(join(dir, `f${i}.ts`), body));
    if (writes.length >= 256) await Promise.all(writes.splice(0));
  }
  await Promise.all(writes);
  // Ignored output the tools must skip and raw rg skips too (it honours .gitignore in a git-less tree only with --no-require-git).
  await mkdir(join(root, "build"), { recursive: true });
  for (let i = 0; i < 500; i++) await writeFile(join(root, "build", `out${i}.js`), "return needleRare0;\n");
}

function rawRg(root, pattern) {
  return new Promise((resolve, reject) => {
    const child = spawn("rg", ["--no-require-git", "--line-number", pattern, root], { stdio: ["ignore", "pipe", "inherit"] });
    let bytes = 0;
    child.stdout.on("data", (b) => (bytes += b.length));
    child.once("error", reject);
    child.once("exit", (code) => (code === 0 || code === 1 ? resolve(bytes) : reject(new Error(`rg exited ${code}`))));
  });
}

const timed = (fn) => medianTime(fn, { runs: RUNS, warmup: 1 });

async function toolCall(d, pattern) {
  const result = await d.call("searchWorkspace", { pattern, maxResults: 200 });
  if (result.isError) throw new Error(result.content[0]?.text);
  return result.content[0]?.text ?? "";
}

// The bridge's own server keeps the event loop alive while a child runs; this script has none.
const keepAlive = setInterval(() => {}, 60_000);
const base = await realpath(await mkdtemp(join(tmpdir(), "bench-search-")));
try {
  const root = join(base, "ws");
  await mkdir(root);
  const t0 = performance.now();
  await tree(root);
  console.log(`tree: ${FILES} files (+500 ignored) in ${Math.round(performance.now() - t0)} ms; median of ${RUNS} runs`);
  const runtime = createNodeRuntime();
  const settings = { timeoutMs: 600_000 };
  const withRg = await dispatcher(root, { settings });
  const withoutRg = await dispatcher(root, {
    settings,
    runtime: { ...runtime, which: async (cmd) => (cmd === "rg" ? undefined : runtime.which(cmd)) },
  });
  for (const q of QUERIES) {
    const [a, b] = [await toolCall(withRg, q.pattern), await toolCall(withoutRg, q.pattern)];
    if (a !== b) throw new Error(`${q.name}: rg and built-in answers differ`);
    const raw = await timed(() => rawRg(root, q.pattern));
    const viaRg = await timed(() => toolCall(withRg, q.pattern));
    const builtIn = await timed(() => toolCall(withoutRg, q.pattern));
    const first = a.split("\n")[0];
    console.log(
      `${q.name} /${q.pattern}/: raw rg ${raw.toFixed(0)} ms; searchWorkspace with rg ${viaRg.toFixed(0)} ms (x${(viaRg / raw).toFixed(2)}); built-in ${builtIn.toFixed(0)} ms (x${(builtIn / raw).toFixed(2)}); answer starts "${first}"`,
    );
  }
} finally {
  clearInterval(keepAlive);
  await rm(base, { recursive: true, force: true });
}
