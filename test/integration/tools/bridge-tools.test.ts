// The bridge's own 8 tools through a real bridge process and an SDK client over Streamable HTTP:
// each answers with what the calls this test made left behind (its session, its client's name,
// its tools, its error), not canned data. One bridge and one client for the file.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startBridgeProcess, type BridgeProcess } from "../../helpers/spawn-bridge.ts";

const CLIENT = "bridge-tools-it";
let workspace: string;
let bridge: BridgeProcess;
let client: Client;

type Result = { isError?: boolean; structuredContent?: Record<string, unknown>; content: { text?: string }[] };

async function data<T>(name: string, args: Record<string, unknown> = {}): Promise<T> {
  const result = (await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 })) as Result;
  if (result.isError) throw new Error(`${name} failed: ${result.content.map((c) => c.text).join(" ")}`);
  return result.structuredContent as T;
}

beforeAll(async () => {
  // No source files: the doctor's checks start no language server, so bridgeDoctor stays quick.
  workspace = await mkdtemp(join(tmpdir(), "cib-bridge-tools-"));
  await writeFile(join(workspace, "notes.txt"), "first line\nsecond line\n");
  bridge = await startBridgeProcess({ workspace });
  client = new Client({ name: CLIENT, version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(bridge.mcpUrl), { requestInit: { headers: { authorization: `Bearer ${bridge.token}` } } }),
  );
  // The calls the tools below must report: two reads, one failing read, one file search.
  await client.callTool({ name: "readFile", arguments: { path: "notes.txt" } });
  await client.callTool({ name: "readFile", arguments: { path: "notes.txt" } });
  await client.callTool({ name: "readFile", arguments: { path: "missing.txt" } });
  await client.callTool({ name: "findFiles", arguments: { pattern: "*.txt" } });
}, 120_000);

afterAll(async () => {
  await client?.close().catch(() => undefined);
  await bridge?.stop();
  await rm(workspace, { recursive: true, force: true });
});

it("getActivityLog and getSessionUsage list this session's calls, the failed one with its code", { timeout: 60_000 }, async () => {
  const log = await data<{ entries: { tool?: string; outcome?: string; client?: string; session?: string }[]; lastSeq: number }>(
    "getActivityLog",
    { kind: "call", limit: 50 },
  );
  const reads = log.entries.filter((e) => e.tool === "readFile");
  expect(reads).toHaveLength(3);
  expect(reads.every((e) => e.client === CLIENT)).toBe(true);
  expect(reads.map((e) => e.outcome).sort()).toEqual(["file_not_found", "ok", "ok"]);
  const usage = await data<{ current: boolean; client: string; calls: number; errors: number; tools: { tool: string; calls: number }[] }>(
    "getSessionUsage",
  );
  expect(usage).toMatchObject({ current: true, client: CLIENT, errors: 1 });
  // The reads, the search, and the getActivityLog call above (this call is counted once it ends).
  expect(usage.calls).toBe(5);
  expect(usage.tools.find((t) => t.tool === "readFile")).toMatchObject({ calls: 3, errors: 1 });
  expect(reads[0]?.session).toBe((await data<{ session: string }>("getSessionUsage")).session);
});

it("getPerformanceReport and getAnalyticsReport count the calls per tool, toolset, client and error code", {
  timeout: 60_000,
}, async () => {
  const perf = await data<{ tools: { name: string; calls: number; errors: number; p95Ms: number }[]; toolsets: { name: string }[] }>(
    "getPerformanceReport",
    { tool: "readFile" },
  );
  expect(perf.tools).toHaveLength(1);
  expect(perf.tools[0]).toMatchObject({ calls: 3, errors: 1 });
  expect(perf.tools[0]?.p95Ms).toBeGreaterThanOrEqual(0);
  const analytics = await data<{
    topTools: { tool: string; calls: number }[];
    errorCodes: { code: string; count: number; tools: string[] }[];
    clients: { client: string; calls: number }[];
    usedTogether: { tools: [string, string]; count: number }[];
  }>("getAnalyticsReport");
  expect(analytics.topTools.find((t) => t.tool === "readFile")?.calls).toBe(3);
  expect(analytics.errorCodes).toContainEqual({ code: "file_not_found", count: 1, tools: ["readFile"] });
  expect(analytics.clients.find((c) => c.client === CLIENT)?.calls).toBeGreaterThanOrEqual(4);
  expect(analytics.usedTogether.some((u) => u.tools.includes("readFile") && u.tools.includes("findFiles"))).toBe(true);
});

it("watchActivityLog answers with a call made while it waits", { timeout: 60_000 }, async () => {
  const { lastSeq } = await data<{ lastSeq: number }>("getActivityLog", { limit: 1 });
  const watching = data<{ entries: { tool?: string }[]; timedOut: boolean }>("watchActivityLog", {
    after: lastSeq,
    tool: "getWorkspaceFolders",
    waitMs: 30_000,
  });
  await client.callTool({ name: "getWorkspaceFolders", arguments: {} });
  const seen = await watching;
  expect(seen.timedOut).toBe(false);
  expect(seen.entries.map((e) => e.tool)).toEqual(["getWorkspaceFolders"]);
});

it("getBridgeStatus names this bridge and this session; searchTools finds tools by words; bridgeDoctor runs the checks", {
  timeout: 150_000,
}, async () => {
  const status = await data<{
    port: number;
    workspace: string;
    sessions: { http: number; open: { id: string; client: string | null; transport: string; state: string }[] };
    activity: { calls: number; errors: number };
    health: { score: number; signals: unknown[] };
  }>("getBridgeStatus");
  expect(status.port).toBe(bridge.port);
  expect(status.sessions.open).toContainEqual(expect.objectContaining({ client: CLIENT, transport: "http", state: "connected" }));
  expect(status.activity.errors).toBeGreaterThanOrEqual(1);
  expect(status.activity.calls).toBeGreaterThanOrEqual(7);
  expect(status.health.signals.length).toBeGreaterThan(0);

  const search = await data<{ tools: { name: string }[] }>("searchTools", { query: "git blame who changed a line" });
  expect(search.tools.slice(0, 5).map((t) => t.name)).toContain("gitBlame");

  const doctor = await data<{ checks: { area: string; status: string; summary: string }[]; counts: { ok: number } }>("bridgeDoctor", {
    all: true,
  });
  // The runtime check names the bridge's own node, and the bridge check finds this very bridge.
  expect(doctor.checks.find((c) => c.area === "runtime")?.summary).toContain(process.versions.node);
  expect(doctor.checks.some((c) => c.area === "bridge" && c.summary.includes(String(bridge.port)))).toBe(true);
});
