// How many bytes the bridge's tools/list takes, per part of a tool's entry: the full catalogue as
// the registry lists it (what a client receives, as JSON), and the per-tool average. Compare with
// the figures printed by the same script on another commit (same machine, same catalogue).
// Usage: node bench/tools-list-size.mjs [--json] [--top N]
import { register } from "tsx/esm/api";

register();
const { ToolRegistry } = await import(new URL("../src/tools/platform/registry.ts", import.meta.url).href);
const { TOOLSETS } = await import(new URL("../src/tools/toolsets.ts", import.meta.url).href);

const bytes = (value) => (value === undefined ? 0 : Buffer.byteLength(JSON.stringify(value)));
const registry = new ToolRegistry(TOOLSETS, { slim: false, maxResultChars: 512 * 1024 });
const entries = registry.entries();
const parts = ["inputSchema", "outputSchema", "description", "_meta", "annotations", "title"];
const byPart = Object.fromEntries(parts.map((p) => [p, entries.reduce((sum, e) => sum + bytes(e[p]), 0)]));
const total = bytes(entries);
const perTool = entries.map((e) => ({ name: e.name, bytes: bytes(e) })).sort((a, b) => b.bytes - a.bytes);
const top = Number(process.argv[process.argv.indexOf("--top") + 1]) || 10;
const report = {
  tools: entries.length,
  totalBytes: total,
  perToolAverage: Math.round(total / entries.length),
  byPart,
  largest: perTool.slice(0, top),
};
if (process.argv.includes("--json")) console.log(JSON.stringify(report, null, 2));
else {
  console.log(`tools/list: ${report.tools} tools, ${total} bytes, ${report.perToolAverage} per tool`);
  for (const p of parts) console.log(`  ${p.padEnd(13)} ${String(byPart[p]).padStart(7)}`);
  console.log(`largest entries:`);
  for (const t of report.largest) console.log(`  ${t.name.padEnd(28)} ${t.bytes}`);
}
