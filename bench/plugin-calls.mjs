// A plugin tool call in its worker against the same plugin's handler run in the bridge's process:
// the median of 200 calls each, measured in one run, through the same wrapper (pluginTool) and tool
// contexts; the worker's path adds the message round trip and the structured clone of input and
// result. Also the time a PluginHost takes to start the plugin (its worker, import and register).
// Run: node --import tsx bench/plugin-calls.mjs
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
const tree = new URL("..", import.meta.url).pathname;
const { pluginTool } = await import(`${tree}/src/plugins/plugin-tool.ts`);
const { oneTool, writePlugin } = await import(`${tree}/test/helpers/plugin-fixture.ts`);
const { testPluginHost } = await import(`${tree}/test/helpers/plugin-host-fixture.ts`);

const CALLS = 200;
const dir = await mkdtemp(join(tmpdir(), "cib-plugin-calls-"));
const plugin = await writePlugin(join(dir, "p"), { name: "p", prefix: "pp", code: oneTool("ppGreet", "({ hello: input.who, n: 1 })") });
const started = performance.now();
const { host, registry, context } = testPluginHost({ sources: [plugin], dir });
await host.start();
const startMs = performance.now() - started;

// The same plugin in this process: its register(ctx) given just enough to hand over its definition.
const definitions = [];
(await import(pathToFileURL(join(plugin, "index.mjs")).href)).register({ registerTool: (d) => definitions.push(d) });
const inProcess = pluginTool(definitions[0], { plugin: "p", prefix: "pp", onFailure: () => {} });
const inWorker = registry.get("ppGreet");

async function median(tool) {
  const times = [];
  for (let i = 0; i < CALLS + 20; i++) {
    const t = performance.now();
    await tool.handlers.headless({ who: `w${i}` }, context());
    if (i >= 20) times.push(performance.now() - t);
  }
  return times.sort((a, b) => a - b)[CALLS / 2];
}
const inProcessMs = await median(inProcess);
const inWorkerMs = await median(inWorker);
console.log(
  JSON.stringify({
    startPluginMs: startMs.toFixed(1),
    callInProcessUs: (inProcessMs * 1000).toFixed(0),
    callInWorkerUs: (inWorkerMs * 1000).toFixed(0),
    ratio: (inWorkerMs / inProcessMs).toFixed(1),
  }),
);
await host.stop();
await rm(dir, { recursive: true, force: true });
