// Memory and time of plugin reloads: 50 edits of a plugin (an entrypoint and a 20 KB helper module it
// imports) through a PluginHost with the real registry, runtime, watcher and tool contexts; prints the
// heap and the process's resident memory before and after (after two GCs; a plugin's worker is in
// the second, not the first), the median time from an edit's write to the tools-changed signal, and
// how many reloads answered with a stale helper.
// Run: node --expose-gc --import tsx bench/plugin-reload-memory.mjs [checkout]   (default: this one;
// give another checkout, e.g. main's, for the figure before a change).
import { mkdtemp, writeFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
const tree = process.argv[2] ?? fileURLToPath(new URL("..", import.meta.url));
const { createNodeFs } = await import(`${tree}/runtime/shared/fs.ts`);
const { createNodeRuntime } = await import(`${tree}/runtime/node.ts`);
const { silentLogger } = await import(`${tree}/src/log.ts`);
const { PluginHost } = await import(`${tree}/src/plugins/plugin-host.ts`);
const { ToolRegistry } = await import(`${tree}/src/tools/platform/registry.ts`);
const { toolContext } = await import(`${tree}/src/tools/platform/tool-environment.ts`);
const { testEnvironment } = await import(`${tree}/test/helpers/session-fixture.ts`);
const { writePlugin } = await import(`${tree}/test/helpers/plugin-fixture.ts`);
const dir = await mkdtemp(join(tmpdir(), "cib-plugin-reload-"));
const plugin = join(dir, "p");
const pad = "x".repeat(20_000);
const helper = (v) => writeFile(join(plugin, "helper.mjs"), `export const version = ${v}; export const pad = ${JSON.stringify(pad)};\n`);
const code = (v) =>
  `import { version } from "./helper.mjs";\nexport function register(ctx) {\n  ctx.registerTool({ name: "ppVersion", description: "Answers the helper's version.", searchHint: "plugin version helper", inputSchema: { type: "object", properties: {}, additionalProperties: false }, annotations: { readOnlyHint: true }, handler: () => String(version) + " ${v}" });\n}\n`;
await writePlugin(plugin, { name: "p", prefix: "pp", code: code(0) });
await helper(0);
const registry = new ToolRegistry([], { slim: false, maxResultChars: 10_000 });
const env = testEnvironment(registry);
let changed = () => {};
const host = new PluginHost({
  sources: [plugin],
  watch: true,
  fs: createNodeFs(),
  importer: createNodeRuntime().plugins,
  cwd: dir,
  workspaceFolders: [dir],
  registry,
  settings: env.env.settings,
  makeContext: (scope) => toolContext(env, scope),
  log: silentLogger,
  onToolsChanged: () => changed(),
});
await host.start();
const keepAlive = setInterval(() => {}, 1000);
const gc = globalThis.gc;
const heap = () => {
  gc();
  gc();
  const { heapUsed, rss } = process.memoryUsage();
  return { heap: heapUsed / 1e6, rss: rss / 1e6 };
};
const reloadMs = [];
const before = heap();
let stale = 0;
for (let v = 1; v <= 50; v++) {
  const next = new Promise((r) => (changed = r));
  await helper(v);
  const written = performance.now();
  await writeFile(join(plugin, "index.mjs"), code(v));
  await next;
  reloadMs.push(performance.now() - written);
  const tool = registry.get("ppVersion");
  const answer = await tool.handlers.headless(
    {},
    toolContext(env, { session: "s", executables: [], signal: new AbortController().signal, progress: () => {}, log: () => {} }),
  );
  const text = typeof answer === "string" ? answer : JSON.stringify(answer);
  if (!text.startsWith(`${v} `)) stale++;
}
const after = heap();
console.log(
  JSON.stringify({
    tree,
    heapBeforeMB: before.heap.toFixed(1),
    heapAfter50MB: after.heap.toFixed(1),
    rssBeforeMB: before.rss.toFixed(1),
    rssAfter50MB: after.rss.toFixed(1),
    perReloadKB: (((after.rss - before.rss) * 1000) / 50).toFixed(0),
    // From the write to the tools-changed signal: the 300 ms debounce included.
    reloadMedianMs: reloadMs.sort((a, b) => a - b)[25].toFixed(0),
    staleHelper: stale,
  }),
);
await host.stop();
clearInterval(keepAlive);
await rm(dir, { recursive: true, force: true });
