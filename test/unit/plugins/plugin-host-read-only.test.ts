// Plugin tools for read-only clients (remote tokens with mcp:read alone): the PluginHost offers the
// tools that declare readOnlyHint: true, and only those, in the read-only registry, at start, after
// mirrorReadOnly (the bridge makes that registry after loading the plugins), and after a reload.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { buildInstructions } from "../../../src/tools/platform/instructions.ts";
import { ToolRegistry } from "../../../src/tools/platform/registry.ts";
import { writePlugin } from "../../helpers/plugin-fixture.ts";
import { testPluginHost } from "../../helpers/plugin-host-fixture.ts";

let dir: string;

const tool = (name: string, readOnly: boolean) => `ctx.registerTool({
    name: "${name}",
    description: "Answers with its own name for the read-only test.",
    searchHint: "read only plugin test ${name}",
    inputSchema: { type: "object", properties: {}, additionalProperties: false },
    annotations: ${readOnly ? "{ readOnlyHint: true }" : "{ readOnlyHint: false, destructiveHint: false }"},
    handler: () => "${name} answered",
  });`;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "cib-plugin-ro-"));
  await writePlugin(join(dir, "mixed"), {
    name: "mixed",
    prefix: "mix",
    code: `export function register(ctx) {\n  ${tool("mixRead", true)}\n  ${tool("mixWrite", false)}\n}\n`,
  });
  await writePlugin(join(dir, "writer"), {
    name: "writer",
    prefix: "wr",
    code: `export function register(ctx) {\n  ${tool("wrOnly", false)}\n}\n`,
  });
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

it("offers read-only plugin tools, and only those, to read-only clients, after reloads too", { timeout: 30_000 }, async () => {
  const readOnly = new ToolRegistry([], { slim: false, maxResultChars: 10_000 });
  let changed: () => void = () => undefined;
  const nextChange = () => new Promise<void>((resolve) => (changed = resolve));
  const { host, registry } = testPluginHost({
    sources: [join(dir, "mixed"), join(dir, "writer")],
    dir,
    watch: true,
    onToolsChanged: () => changed(),
  });
  await host.start();
  expect(registry.list().map((t) => t.name)).toEqual(["mixRead", "mixWrite", "wrOnly"]);
  expect(readOnly.size).toBe(0);

  host.mirrorReadOnly(readOnly);
  expect(readOnly.list().map((t) => t.name)).toEqual(["mixRead"]);
  // The toolset keeps its name and purpose, so the read-only clients' instructions name it.
  expect(readOnly.toolsets.map((t) => t.name)).toEqual(["plugin-mix"]);

  // A reload that makes the write tool read-only and the read tool writing swaps both registries.
  let reloaded = nextChange();
  await writeFile(
    join(dir, "mixed", "index.mjs"),
    `export function register(ctx) {\n  ${tool("mixRead", false)}\n  ${tool("mixWrite", true)}\n}\n`,
  );
  await reloaded;
  expect(readOnly.list().map((t) => t.name)).toEqual(["mixWrite"]);
  // What the bridge rebuilds the read-only clients' instructions from, on every reload.
  expect(buildInstructions(readOnly.toolsets, { root: dir })).toContain("- plugin-mix: tools of the mixed plugin");
  expect(
    registry
      .list()
      .map((t) => t.name)
      .sort(),
  ).toEqual(["mixRead", "mixWrite", "wrOnly"]);
  // A reload that leaves no read-only tool removes the plugin's toolset from the read-only registry.
  reloaded = nextChange();
  await writeFile(join(dir, "mixed", "index.mjs"), `export function register(ctx) {\n  ${tool("mixWrite", false)}\n}\n`);
  await reloaded;
  expect(readOnly.size).toBe(0);
  expect(readOnly.toolsets).toEqual([]);
  expect(buildInstructions(readOnly.toolsets, { root: dir })).not.toContain("plugin-mix");
  await host.stop();
});
