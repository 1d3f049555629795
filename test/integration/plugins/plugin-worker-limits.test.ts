// A plugin's worker on Node has a heap limit of its own: a handler that allocates without bound is
// stopped by V8 at that limit, the call is answered with the reason, the bridge's heap is untouched,
// and a fresh worker of the same version serves the plugin's later calls. (Bun's and Deno's workers
// take no memory limit: README, Plugins.) A valibot input schema is converted in the worker and sent
// as JSON Schema; the bridge validates with it, and valibot's own parse in the worker adds defaults.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import * as v from "valibot";
import { afterAll, beforeAll, expect, it } from "vitest";
import { ToolError } from "../../../src/errors.ts";
import type { PluginHost } from "../../../src/plugins/plugin-host.ts";
import type { Schema } from "../../../src/tools/platform/define-tool.ts";
import { jsonSchemaOf } from "../../../src/tools/platform/json-schema.ts";
import type { ToolRegistry } from "../../../src/tools/platform/registry.ts";
import { writePlugin } from "../../helpers/plugin-fixture.ts";
import { type TestPluginHost, testPluginHost } from "../../helpers/plugin-host-fixture.ts";

const LIMIT_MB = 64;
const VALIBOT = pathToFileURL(fileURLToPath(new URL("../../../node_modules/valibot/dist/index.mjs", import.meta.url))).href;
let dir: string;
let host: PluginHost;
let registry: ToolRegistry;
let run: TestPluginHost["run"];

const tool = (name: string, handler: string) => `ctx.registerTool({
    name: "${name}",
    description: "Runs ${name} for the worker limits test.",
    searchHint: "worker limit test ${name}",
    inputSchema: { type: "object", properties: {}, additionalProperties: false },
    annotations: { readOnlyHint: true },
    handler: ${handler},
  });`;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "cib-plugin-limits-"));
  await writePlugin(join(dir, "lim"), {
    name: "lim",
    prefix: "lim",
    code: `import * as v from ${JSON.stringify(VALIBOT)};
export function register(ctx) {
  ctx.registerTool({
    name: "limGreet",
    description: "Greets someone, by default you, for the worker limits test.",
    searchHint: "worker valibot greet test",
    inputSchema: v.strictObject({ who: v.optional(v.string(), "you") }),
    annotations: { readOnlyHint: true },
    handler: (input) => "hi " + input.who,
  });
  ${tool("limHog", "() => { const kept = []; for (;;) kept.push(new Array(100000).fill(Math.random())); }")}
  ${tool("limAnswer", '() => "still here"')}
}
`,
  });
  ({ host, registry, run } = testPluginHost({ sources: [join(dir, "lim")], dir, memoryLimitMb: LIMIT_MB }));
  await host.start();
});

afterAll(async () => {
  await host?.stop();
  await rm(dir, { recursive: true, force: true });
});

it("stops a handler allocating without bound at its worker's heap limit, then serves the plugin from a fresh worker", async () => {
  const heapBefore = process.memoryUsage().heapUsed;
  const err = await run("limHog").catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ToolError);
  expect((err as ToolError).message).toContain(
    `limHog (plugin lim) failed: its worker stopped: it reached its memory limit (${LIMIT_MB} MB of heap)`,
  );
  // The allocation was the worker's: the bridge's own heap did not take it.
  expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(LIMIT_MB * 1024 * 1024);
  expect(await run("limAnswer")).toBe("still here");
  const [status] = host.status();
  expect(status).toMatchObject({ state: "loaded", lastToolFailure: { tool: "limHog" } });
  expect(status?.lastToolFailure?.error).toContain("a fresh worker serves its later calls");
});

it("takes a valibot input schema as the JSON Schema the worker converted it to, and parses with valibot in the worker", async () => {
  const greet = registry.get("limGreet");
  expect(jsonSchemaOf(greet?.input as Schema)).toMatchObject({
    type: "object",
    properties: { who: { type: "string", default: "you" } },
    additionalProperties: false,
  });
  expect(v.safeParse(greet?.input as v.GenericSchema, { who: 3 }).success).toBe(false);
  expect(v.safeParse(greet?.input as v.GenericSchema, { whom: "x" }).success).toBe(false);
  expect(await run("limGreet", {})).toBe("hi you");
  expect(await run("limGreet", { who: "ann" })).toBe("hi ann");
});
