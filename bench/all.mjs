// `npm run bench`: the benchmarks behind the per-call, transport and start-up figures, each run as
// its own process (so one's servers and caches do not touch the next), and one table of what they
// measured: each figure against its baseline from the same run, the ratio and its target.
// The machine's load average is printed before and after: ratios taken at a load above the core
// count are noisy (run again, compare medians), absolute times more so.
// Usage: npm run bench   (builds first; BENCH_ONLY=lsp,ws-ping,... runs a subset)
import { spawn } from "node:child_process";
import { availableParallelism, loadavg } from "node:os";

const BENCHES = [
  { name: "lsp", args: [], env: { BENCH_LSP_WARM_ONLY: "1", BENCH_LSP_RUNS: "21" } },
  { name: "lsp-languages", args: [], env: { BENCH_LSP_RUNS: "51" } },
  { name: "mcp-http", args: [], env: {} },
  { name: "ws-ping", args: [], env: {} },
  { name: "startup", args: ["7"], env: {} },
  { name: "runtimes", args: ["5", "200"], env: {} },
  { name: "shim-cold", args: ["5"], env: {} },
  { name: "document-sync", args: [], env: {} },
  { name: "slow-tools", args: ["5"], env: {} },
  // The two git tools with no other measure, on 4,000 commits: enough for the window of history they read.
  { name: "git", args: [], env: { BENCH_GIT_COMMITS: "4000", BENCH_GIT_RUNS: "9", BENCH_GIT_TOOLS: "getGitHotspots,getSymbolHistory" } },
];
const only = process.env.BENCH_ONLY?.split(",");

function run(bench) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [new URL(`${bench.name}.mjs`, import.meta.url).pathname, ...bench.args], {
      env: { ...process.env, ...bench.env, BENCH_JSON: "1" },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (d) => {
      out += d;
      for (const line of d.split("\n"))
        if (line.trim() && !line.startsWith("BENCH_ROWS ")) process.stderr.write(`  [${bench.name}] ${line}\n`);
    });
    child.once("exit", (code) => {
      const line = out.split("\n").find((l) => l.startsWith("BENCH_ROWS "));
      if (code !== 0 || line === undefined)
        return resolve([{ what: bench.name, bridge: `failed (exit ${code})`, baseline: "", ratio: "", target: "" }]);
      resolve(JSON.parse(line.slice("BENCH_ROWS ".length)));
    });
  });
}

const load = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(" ");
const before = load();
const rows = [];
for (const bench of BENCHES) {
  if (only && !only.includes(bench.name)) continue;
  process.stderr.write(`${bench.name}...\n`);
  rows.push(...(await run(bench)));
}
const header = ["measured", "bridge", "baseline (same run)", "ratio", "target"];
const table = [header, ...rows.map((r) => [r.what, r.bridge, r.baseline, String(r.ratio), r.target])];
const widths = header.map((_, i) => Math.max(...table.map((row) => row[i].length)));
const line = (cells) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(" | ")} |`;
console.log(line(header));
console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
for (const row of table.slice(1)) console.log(line(row));
console.log(`\nload average ${before} before, ${load()} after, on ${availableParallelism()} cores`);
