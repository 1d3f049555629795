// Plugins in a real bridge (in-process, the real Node runtime, an SDK client over Streamable HTTP):
// load and call, plain-words argument errors, a name collision rejecting only its plugin, a plugin
// that throws at import or in register, handlers that throw or hang, getToolCapabilities and
// /health reporting all of it, hot reload of a changed handler seen by the connected client with
// notifications/tools/list_changed, and a broken edit keeping the last good version. Each plugin runs
// in a worker: a handler stuck in a synchronous loop is answered at its timeout while the bridge
// serves other tools, and its plugin serves again from a fresh worker.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createNodeRuntime } from "../../../runtime/node.ts";
import { startBridge, type RunningBridge } from "../../../src/bridge.ts";
import { DEFAULT_CONFIG } from "../../../src/config/schema.ts";
import { silentLogger } from "../../../src/log.ts";
import { manifestOf, oneTool, writePlugin } from "../../helpers/plugin-fixture.ts";
import { tempWorkspaces, type TempWorkspaces } from "../../helpers/temp-workspace.ts";

let temp: TempWorkspaces;
let bridge: RunningBridge;
let client: Client;
let hotDir: string;
let workspaceRoot: string;
const listChanged: number[] = [];
let listChangedWaiters: (() => void)[] = [];

type Result = { isError?: boolean; content: { type: string; text?: string }[]; structuredContent?: Record<string, unknown> };

async function call(name: string, args: Record<string, unknown> = {}): Promise<Result> {
  return (await client.callTool({ name, arguments: args })) as Result;
}

function text(result: Result): string {
  return result.content.map((c) => c.text ?? "").join("\n");
}

function nextListChanged(): Promise<void> {
  return new Promise((resolve) => listChangedWaiters.push(resolve));
}

beforeAll(async () => {
  temp = await tempWorkspaces("cib-plugins-");
  const root = await temp.make("ws", { "notes.txt": "plugin fixture\n" });
  workspaceRoot = root;
  const base = await temp.make("plugins", {});
  const good = await writePlugin(join(base, "good"), {
    name: "good-plugin",
    prefix: "good",
    code: `export function register(ctx) {
  ctx.log.info("registering");
  ctx.registerTool({
    name: "goodRead",
    description: "Reads a workspace file through the jail for the test.",
    searchHint: "read workspace file plugin test",
    inputSchema: { type: "object", properties: { path: { type: "string" }, lines: { type: "integer", minimum: 1 } }, required: ["path"], additionalProperties: false },
    annotations: { readOnlyHint: true },
    async handler(input, c) { return (await c.fs.readText(input.path, { maxBytes: 10000 })).trim() + " @" + c.workspaceFolders.length; },
  });
  ctx.registerTool({
    name: "goodData",
    description: "Returns structured data for the test.",
    searchHint: "data json plugin test",
    inputSchema: { type: "object", properties: {}, additionalProperties: false },
    annotations: { readOnlyHint: true },
    handler: () => ({ answer: 42, keys: Object.keys(ctx).sort() }),
  });
  ctx.registerTool({
    name: "goodThrows",
    description: "Throws for the test.",
    searchHint: "throw fail plugin test",
    inputSchema: { type: "object", properties: {}, additionalProperties: false },
    annotations: { readOnlyHint: true },
    async handler() { throw new Error("kaboom from the plugin"); },
  });
  ctx.registerTool({
    name: "goodExpected",
    description: "Fails the expected way for the test.",
    searchHint: "expected failure plugin test",
    inputSchema: { type: "object", properties: {}, additionalProperties: false },
    annotations: { readOnlyHint: true },
    async handler() { throw ctx.toolError("nothing to do here", { suggestion: "Call goodRead instead." }); },
  });
  ctx.registerTool({
    name: "goodHangs",
    description: "Hangs until aborted for the test.",
    searchHint: "hang timeout plugin test",
    inputSchema: { type: "object", properties: {}, additionalProperties: false },
    annotations: { readOnlyHint: true },
    timeoutMs: 1000,
    handler: (_input, c) => new Promise((resolve) => c.signal.addEventListener("abort", () => setTimeout(() => resolve("too late"), 10))),
  });
  ctx.registerTool({
    name: "goodSpins",
    description: "Writes spinning.txt, then spins in a synchronous loop for the test.",
    searchHint: "spin loop plugin test",
    inputSchema: { type: "object", properties: {}, additionalProperties: false },
    annotations: { readOnlyHint: false, destructiveHint: false },
    timeoutMs: 1000,
    async handler(_input, c) {
      await c.fs.writeFile("spinning.txt", "yes");
      for (;;) {}
    },
  });
}
`,
  });
  const collides = await writePlugin(join(base, "collides"), {
    name: "collides",
    prefix: "good",
    code: oneTool("goodRead", "'never served'"),
  });
  const builtin = await writePlugin(join(base, "builtin"), { name: "shadow", prefix: "get", code: oneTool("getGitStatus", "'shadowed'") });
  const importThrows = await writePlugin(join(base, "import-throws"), {
    name: "import-throws",
    prefix: "bad",
    code: `throw new Error("broken at import");\n`,
  });
  const registerThrows = await writePlugin(join(base, "register-throws"), {
    name: "register-throws",
    prefix: "worse",
    code: `export function register() { throw new Error("broken in register"); }\n`,
  });
  const badPrefix = await writePlugin(join(base, "bad-prefix"), { name: "bad-prefix", prefix: "mine", code: oneTool("yoursTool", "'x'") });
  hotDir = await writePlugin(join(base, "hot"), { name: "hot", prefix: "hot", code: oneTool("hotGreet", "'v1 hello ' + input.who") });
  // Its lock file and activity log in a folder of the test's, not the user's ~/.claude/ide.
  const configDir = await temp.make("config", {});
  const node = createNodeRuntime();
  bridge = await startBridge(
    { ...node, env: { ...node.env, CLAUDE_CONFIG_DIR: configDir } },
    {
      ...DEFAULT_CONFIG,
      workspace: root,
      // The hanging tool's own 1 s does not lower the bridge's; getToolCapabilities needs more than 1 s on a loaded machine.
      timeoutMs: 3000,
      toolRateLimit: 10_000,
      requestRateLimit: 10_000,
      plugins: [good, collides, builtin, importThrows, registerThrows, badPrefix, join(base, "missing"), hotDir],
      pluginWatch: true,
    },
    { logger: silentLogger },
  );
  const transport = new StreamableHTTPClientTransport(new URL(`${bridge.url}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${bridge.token}` } },
  });
  client = new Client({ name: "plugins-test", version: "1" });
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    listChanged.push(Date.now());
    const waiters = listChangedWaiters;
    listChangedWaiters = [];
    for (const w of waiters) w();
  });
  await client.connect(transport);
}, 60_000);

afterAll(async () => {
  await client?.close();
  await bridge?.stop();
  await temp?.remove();
});

describe("loading", () => {
  it("serves a plugin's tools in tools/list with their search hints, next to the built-in ones", async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(["goodRead", "goodData", "goodThrows", "goodHangs", "hotGreet", "getGitStatus"]));
    const read = tools.find((t) => t.name === "goodRead");
    expect(read?._meta?.["anthropic/searchHint"]).toBe("read workspace file plugin test");
    expect(read?.inputSchema).toMatchObject({ type: "object", required: ["path"], additionalProperties: false });
    expect(read?.annotations).toEqual({ readOnlyHint: true });
    // The instructions Claude Code's tool search reads name each loaded plugin's toolset.
    expect(client.getInstructions()).toContain("- plugin-good: tools of the good-plugin plugin");
  });

  it("calls a plugin tool with the jailed fs, and says a wrong argument in plain words", async () => {
    expect(text(await call("goodRead", { path: "notes.txt" }))).toBe("plugin fixture @1");
    const outside = await call("goodRead", { path: "../../../etc/passwd" });
    expect(outside.isError).toBe(true);
    const wrong = await call("goodRead", { file_path: "notes.txt" });
    expect(wrong.isError).toBe(true);
    expect(text(wrong)).toContain("unknown argument `file_path` (did you mean `path`?)");
    expect(text(wrong)).toContain("missing required argument `path`");
    const low = await call("goodRead", { path: "notes.txt", lines: 0 });
    expect(text(low)).toContain("`lines` must be >=1, got 0");
  });

  it("hands register(ctx) the narrow context, and sends other values as compact JSON", async () => {
    expect(JSON.parse(text(await call("goodData")))).toEqual({
      answer: 42,
      keys: ["bridgeVersion", "fs", "http", "log", "lsp", "plugin", "registerTool", "settings", "toolError", "workspaceFolders"],
    });
  });

  it("rejects only the plugin whose names collide, a built-in's or another plugin's, and the one off its prefix", async () => {
    const caps = (await call("getToolCapabilities")).structuredContent as {
      plugins: { name: string; state: string; error?: string; tools: string[] }[];
    };
    const byName = new Map(caps.plugins.map((p) => [p.name, p]));
    expect(byName.get("good-plugin")).toMatchObject({
      state: "loaded",
      tools: ["goodRead", "goodData", "goodThrows", "goodExpected", "goodHangs", "goodSpins"],
    });
    expect(byName.get("collides")).toMatchObject({ state: "failed" });
    expect(byName.get("collides")?.error).toMatch(/goodRead|plugin-good/);
    expect(byName.get("shadow")?.error).toContain('"getGitStatus" is already registered');
    expect(byName.get("bad-prefix")?.error).toContain('toolNamePrefix "mine"');
    expect(byName.get("hot")).toMatchObject({ state: "loaded", tools: ["hotGreet"] });
    expect(text(await call("getGitStatus"))).not.toContain("shadowed");
  });

  it("reports a plugin that throws at import or in register, or is missing, and keeps serving", async () => {
    const caps = (await call("getToolCapabilities")).structuredContent as {
      plugins: { name: string; source: string; state: string; error?: string }[];
    };
    const failed = caps.plugins.filter((p) => p.state === "failed");
    expect(failed.find((p) => p.name === "import-throws")?.error).toContain("importing index.mjs threw: broken at import");
    expect(failed.find((p) => p.name === "register-throws")?.error).toContain("register(ctx) threw: broken in register");
    expect(failed.find((p) => p.source.endsWith("missing"))?.error).toContain("no such directory");
    const health = (await (await fetch(`${bridge.url}/health`, { headers: { authorization: `Bearer ${bridge.token}` } })).json()) as {
      plugins: { state: string }[];
    };
    expect(health.plugins.filter((p) => p.state === "failed")).toHaveLength(6);
    // The activity log has the loads and the failures too.
    const log = (await call("getActivityLog", { kind: "event", limit: 200 })).structuredContent as {
      entries: { source?: string; event?: string; detail?: Record<string, string> }[];
    };
    const plugins = log.entries.filter((e) => e.source === "plugins");
    expect(plugins.filter((e) => e.event === "plugin.failed")).toHaveLength(6);
    expect(plugins.find((e) => e.event === "plugin.loaded" && e.detail?.plugin?.includes("good-plugin"))).toBeDefined();
  });
});

describe("isolation", () => {
  it("answers a throwing handler with an error naming the plugin, and records it", async () => {
    const thrown = await call("goodThrows");
    expect(thrown.isError).toBe(true);
    expect(text(thrown)).toContain("goodThrows (plugin good-plugin) failed: kaboom from the plugin");
    const expected = await call("goodExpected");
    expect(text(expected)).toContain("nothing to do here");
    expect(text(expected)).toContain("Call goodRead instead.");
    const caps = (await call("getToolCapabilities")).structuredContent as { plugins: { name: string; lastToolFailure?: unknown }[] };
    expect(caps.plugins.find((p) => p.name === "good-plugin")?.lastToolFailure).toEqual({
      tool: "goodThrows",
      error: "kaboom from the plugin",
    });
    const log = (await call("getActivityLog", { kind: "event", limit: 200 })).structuredContent as {
      entries: { event?: string; detail?: Record<string, string> }[];
    };
    expect(log.entries.find((e) => e.event === "plugin.tool_failed")?.detail).toMatchObject({ plugin: "good-plugin", tool: "goodThrows" });
  });

  it("answers a hanging handler with a timeout and aborts its signal; the bridge keeps serving", async () => {
    const hung = await call("goodHangs");
    expect(hung.isError).toBe(true);
    expect(text(hung)).toContain("did not finish within 3000 ms");
    expect(text(await call("goodRead", { path: "notes.txt" }))).toBe("plugin fixture @1");
    const caps = (await call("getToolCapabilities")).structuredContent as {
      plugins: { name: string; lastToolFailure?: { tool: string } }[];
    };
    expect(caps.plugins.find((p) => p.name === "good-plugin")?.lastToolFailure?.tool).toBe("goodHangs");
  });
});

describe("workers", () => {
  it("answers a handler stuck in a synchronous loop at its timeout, serves other tools meanwhile, then serves the plugin again", async () => {
    let answered = false;
    const spin = call("goodSpins").then((result) => {
      answered = true;
      return result;
    });
    // The handler writes spinning.txt and then loops: once the file is there, its worker is stuck.
    await vi.waitFor(() => expect(existsSync(join(workspaceRoot, "spinning.txt"))).toBe(true), { timeout: 20_000, interval: 20 });
    // Another plugin's tool and a built-in one answer while the loop runs.
    expect(text(await call("hotGreet", { who: "meanwhile" }))).toBe("v1 hello meanwhile");
    expect(answered).toBe(false);
    expect((await call("getActivityLog", { kind: "event", limit: 5 })).isError).toBeFalsy();
    const result = await spin;
    expect(result.isError).toBe(true);
    expect(text(result)).toContain("goodSpins did not finish within 3000 ms");
    // The stuck worker is terminated and a fresh one of the same version serves the plugin's tools.
    expect(text(await call("goodRead", { path: "notes.txt" }))).toBe("plugin fixture @1");
    const caps = (await call("getToolCapabilities")).structuredContent as {
      plugins: { name: string; state: string; lastToolFailure?: { tool: string; error: string } }[];
    };
    const good = caps.plugins.find((p) => p.name === "good-plugin");
    expect(good?.state).toBe("loaded");
    expect(good?.lastToolFailure?.tool).toBe("goodSpins");
    expect(good?.lastToolFailure?.error).toContain("kept its worker busy past its cancel");
    const log = (await call("getActivityLog", { kind: "event", limit: 200 })).structuredContent as {
      entries: { event?: string; detail?: Record<string, string> }[];
    };
    expect(log.entries.find((e) => e.event === "plugin.restarted")?.detail).toMatchObject({ plugin: "good-plugin", tool: "goodSpins" });
  });
});

describe("--plugin-watch", () => {
  it("reloads a changed handler, tells the connected client, and keeps the last good version through a broken edit", async () => {
    expect(text(await call("hotGreet", { who: "ann" }))).toBe("v1 hello ann");
    const changed = nextListChanged();
    await writeFile(join(hotDir, "index.mjs"), oneTool("hotGreet", "'v2 hi ' + input.who"));
    await changed;
    expect(text(await call("hotGreet", { who: "ann" }))).toBe("v2 hi ann");
    expect((await client.listTools()).tools.map((t) => t.name)).toContain("hotGreet");

    const seen = listChanged.length;
    await writeFile(join(hotDir, "index.mjs"), "export function register(ctx) { this is not javascript }\n");
    // The failed reload shows in getToolCapabilities; poll it (no sleep), with the old version still serving meanwhile.
    let error: string | undefined;
    for (let i = 0; i < 400 && error === undefined; i += 1) {
      const caps = (await call("getToolCapabilities")).structuredContent as { plugins: { name: string; state: string; error?: string }[] };
      const hot = caps.plugins.find((p) => p.name === "hot");
      expect(hot?.state).toBe("loaded");
      expect(text(await call("hotGreet", { who: "bo" }))).toBe("v2 hi bo");
      error = hot?.error;
    }
    expect(error).toMatch(/importing index\.mjs threw: .*the version loaded before still serves/s);
    expect(listChanged.length).toBe(seen);
  }, 60_000);

  it("rebuilds the instructions when a reload changes the plugin: a client connecting then reads its new line and tools", async () => {
    const line = (purpose: string) => `- plugin-hot: ${purpose}`;
    expect(client.getInstructions()).toContain(line("tools of the hot plugin"));
    let changed = nextListChanged();
    // The manifest first: a reload between the two writes serves the new line with the old tools, and another follows.
    await writeFile(
      join(hotDir, "claude-ide-bridge-plugin.json"),
      JSON.stringify(manifestOf({ name: "hot", prefix: "hot", manifest: { description: "greets people, reloaded" } })),
    );
    await writeFile(
      join(hotDir, "index.mjs"),
      oneTool("hotGreet", "'v3 hey ' + input.who").replace(
        "export function register(ctx) {",
        `export function register(ctx) {\n  ctx.registerTool({ name: "hotWave", description: "Waves for the test.", searchHint: "wave test", inputSchema: { type: "object", properties: {}, additionalProperties: false }, annotations: { readOnlyHint: true }, handler: () => "wave" });`,
      ),
    );
    // The connected client hears of the change and lists the new tool with the old one.
    let names: string[] = [];
    while (!names.includes("hotWave")) {
      await changed;
      changed = nextListChanged();
      names = (await client.listTools()).tools.map((t) => t.name);
    }
    expect(names).toContain("hotGreet");
    // The instructions are sent at initialize: a client connecting now reads the rebuilt ones.
    const late = new Client({ name: "plugins-late", version: "1" });
    await late.connect(
      new StreamableHTTPClientTransport(new URL(`${bridge.url}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${bridge.token}` } },
      }),
    );
    try {
      expect(late.getInstructions()).toContain(line("greets people, reloaded"));
      expect(late.getInstructions()).not.toContain(line("tools of the hot plugin"));
      expect((await late.callTool({ name: "hotWave", arguments: {} })).content).toEqual([{ type: "text", text: "wave" }]);
    } finally {
      await late.close();
    }
  }, 60_000);
});
