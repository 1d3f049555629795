// The bridge's own tools on a real tool context with a real activity log: what they answer, and
// that without a monitor they say so instead of inventing figures.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ActivityLog } from "../../../src/capabilities/activity/activity-log.ts";
import type { BridgeMonitor } from "../../../src/capabilities/activity/bridge-monitor.ts";
import { bridgeToolset } from "../../../src/tools/bridge/index.ts";
import { TOOLSETS } from "../../../src/tools/toolsets.ts";
import { makeToolContext } from "../../helpers/tool-context.ts";
import { ToolError } from "../../../src/errors.ts";

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "bridge-tools-"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

function tool(name: string) {
  const found = bridgeToolset.tools.find((t) => t.name === name);
  if (found?.handlers.headless === undefined) throw new Error(`no ${name}`);
  return found.handlers.headless;
}

const GRACE_ENDS = Date.UTC(2030, 0, 1, 12, 0, 0);

function monitorWith(log: ActivityLog): BridgeMonitor {
  return {
    activity: log,
    identity: () => ({ version: "1.0.0", runtime: "node", workspace: root, port: 1234, startedAt: Date.now() - 5000, tools: 9 }),
    sessions: () => ({
      list: [
        { id: "connected-one", transport: "websocket", client: "claude-code", openedAt: 0 },
        { id: "waiting-one", transport: "websocket", client: undefined, openedAt: 0, graceEndsAt: GRACE_ENDS },
      ],
      websocket: { active: 1, inGrace: 1, graceMs: 120_000 },
      http: 0,
    }),
    doctor: async () => [
      { area: "runtime", status: "ok", summary: "node 22" },
      { area: "tool", status: "fail", summary: "rg missing", fix: "install ripgrep" },
    ],
  };
}

describe("the bridge tools", () => {
  it("list, filter and report the activity", async () => {
    const log = new ActivityLog();
    log.recordCall({ tool: "readFile", session: "test-session", durationMs: 12, outcome: "ok", resultChars: 40 });
    log.recordCall({ tool: "readFile", session: "other", durationMs: 30, outcome: "file_not_found" });
    log.append({ source: "sessions", event: "session.opened", detail: { session: "other" } });
    const ctx = await makeToolContext(root, { monitor: monitorWith(log) });
    const all = (await tool("getActivityLog")({ limit: 50 }, ctx)) as { entries: { seq: number }[]; lastSeq: number };
    expect(all.entries.map((e) => e.seq)).toEqual([3, 2, 1]);
    expect(all.lastSeq).toBe(3);
    const errors = (await tool("getActivityLog")({ limit: 50, errorsOnly: true }, ctx)) as { entries: { outcome: string }[] };
    expect(errors.entries.map((e) => e.outcome)).toEqual(["file_not_found"]);
    const usage = (await tool("getSessionUsage")({}, ctx)) as { current: boolean; calls: number; resultChars: number };
    expect(usage).toMatchObject({ current: true, calls: 1, resultChars: 40 });
    const perf = (await tool("getPerformanceReport")({ top: 20 }, ctx)) as { overall: { calls: number; p99Ms: number } };
    expect(perf.overall).toMatchObject({ calls: 2, p99Ms: 30 });
    const status = (await tool("getBridgeStatus")({}, ctx)) as { port: number; health: { score: number }; activity: { calls: number } };
    expect(status).toMatchObject({ port: 1234, activity: { calls: 2 } });
    // Grace state per session, not only the counts.
    expect((status as unknown as { sessions: { open: unknown[] } }).sessions.open).toEqual([
      { id: "connected-one", transport: "websocket", client: "claude-code", openedAt: new Date(0).toISOString(), state: "connected" },
      {
        id: "waiting-one",
        transport: "websocket",
        client: null,
        openedAt: new Date(0).toISOString(),
        state: "grace",
        graceEndsAt: new Date(GRACE_ENDS).toISOString(),
      },
    ]);
    const doctor = (await tool("bridgeDoctor")({}, ctx)) as { ok: boolean; checks: unknown[] };
    expect(doctor).toMatchObject({ ok: false, checks: [{ area: "tool", status: "fail" }] });
  });

  it("watchActivityLog waits for the next matching entry, and ends empty when the call is cancelled", async () => {
    const log = new ActivityLog();
    const ctx = await makeToolContext(root, { monitor: monitorWith(log) });
    const waiting = tool("watchActivityLog")({ after: 0, waitMs: 30_000, tool: "findFiles" }, ctx) as Promise<{
      entries: { tool?: string }[];
      timedOut: boolean;
    }>;
    log.recordCall({ tool: "readFile", session: "s", durationMs: 1, outcome: "ok" });
    log.recordCall({ tool: "findFiles", session: "s", durationMs: 1, outcome: "ok" });
    const found = await waiting;
    expect(found.entries.map((e) => e.tool)).toEqual(["findFiles"]);
    const cancelled = tool("watchActivityLog")({ waitMs: 30_000 }, ctx) as Promise<{ timedOut: boolean }>;
    ctx.abort.abort();
    expect((await cancelled).timedOut).toBe(true);
  });

  it("say plainly that there is no activity log without a bridge's monitor", async () => {
    const ctx = await makeToolContext(root);
    const err = await tool("getActivityLog")({ limit: 5 }, ctx).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ToolError);
    expect((err as ToolError).code).toBe("not_supported");
  });

  it("searchTools ranks by name, hint and description", async () => {
    const ctx = await makeToolContext(root, { tools: TOOLSETS.flatMap((s) => s.tools) });
    const search = async (query: string) =>
      ((await tool("searchTools")({ query, limit: 3 }, ctx)) as { tools: { name: string }[] }).tools.map((t) => t.name);
    expect(await search("git status")).toContain("getGitStatus");
    expect((await search("activity log"))[0]).toBe("getActivityLog");
    expect((await search("readFile"))[0]).toBe("readFile");
    expect(await search("zzzzqqq")).toEqual([]);
  });
});
