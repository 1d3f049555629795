// getBridgeStatus: the bridge at a glance: version, uptime, sessions, the VS Code extension and
// its breaker, language servers, and the health score with the signals that make it.
import * as v from "valibot";
import { bridgeSnapshot } from "../../services/activity/bridge-snapshot.ts";
import { defineTool } from "../platform/define-tool.ts";
import { iso, monitorOf } from "./bridge-monitor.ts";

const MAX_SESSIONS = 20;

export default defineTool({
  name: "getBridgeStatus",
  title: "Bridge status",
  description:
    "Shows the bridge's version, uptime, sessions, VS Code extension state and breaker, language servers, and a 0-100 health score with the signals behind it.",
  searchHint: "is the bridge healthy, how long has it been up: status, uptime, sessions, extension, language servers, version",
  input: v.strictObject({}),
  output: v.object({
    version: v.string(),
    runtime: v.string(),
    workspace: v.string(),
    port: v.number(),
    startedAt: v.string(),
    uptimeSeconds: v.number(),
    tools: v.number(),
    health: v.object({
      score: v.number(),
      status: v.string(),
      signals: v.array(v.object({ name: v.string(), value: v.string(), penalty: v.number(), max: v.number() })),
    }),
    sessions: v.object({
      websocket: v.object({ active: v.number(), inGrace: v.number(), graceMs: v.number() }),
      http: v.number(),
      open: v.array(
        v.object({
          id: v.string(),
          transport: v.string(),
          client: v.nullable(v.string()),
          openedAt: v.string(),
          state: v.pipe(v.picklist(["connected", "grace"]), v.description("grace: its socket closed; kept for its client to reattach")),
          graceEndsAt: v.optional(v.pipe(v.string(), v.description("When a session in grace is dropped unless its client comes back."))),
        }),
      ),
    }),
    extension: v.object({
      state: v.string(),
      breaker: v.string(),
      pending: v.number(),
      version: v.optional(v.string()),
      app: v.optional(v.string()),
    }),
    languageServers: v.array(
      v.object({
        id: v.string(),
        root: v.string(),
        state: v.string(),
        crashes: v.number(),
        memoryBytes: v.nullable(v.number()),
        lastError: v.optional(v.string()),
      }),
    ),
    activity: v.object({ calls: v.number(), errors: v.number(), kept: v.number(), capacity: v.number(), lastSeq: v.number() }),
  }),
  annotations: { readOnlyHint: true },
  async handler(_input, ctx) {
    const monitor = monitorOf(ctx);
    const snap = bridgeSnapshot({ monitor, extension: ctx.extension, lsp: ctx.lsp }, { now: Date.now(), recent: 0 });
    const ext = snap.extension;
    return {
      version: snap.bridge.version,
      runtime: snap.bridge.runtime,
      workspace: snap.bridge.workspace,
      port: snap.bridge.port,
      startedAt: iso(snap.bridge.startedAt),
      uptimeSeconds: Math.round(snap.bridge.uptimeMs / 1000),
      tools: snap.bridge.tools,
      health: snap.health,
      sessions: {
        websocket: snap.sessions.websocket,
        http: snap.sessions.http,
        open: snap.sessions.list.slice(-MAX_SESSIONS).map((s) => ({
          id: s.id,
          transport: s.transport,
          client: s.client ?? null,
          openedAt: iso(s.openedAt),
          state: s.graceEndsAt === undefined ? ("connected" as const) : ("grace" as const),
          ...(s.graceEndsAt === undefined ? {} : { graceEndsAt: iso(s.graceEndsAt) }),
        })),
      },
      extension: {
        state: ext.state,
        breaker: ext.breaker,
        pending: ext.pending,
        ...(ext.info && { version: ext.info.extensionVersion, app: ext.info.appName }),
      },
      languageServers: snap.languageServers.map(({ openDocuments: _open, ...server }) => server),
      activity: {
        calls: snap.latency.overall.calls,
        errors: snap.latency.overall.errors,
        kept: snap.kept.entries,
        capacity: snap.kept.capacity,
        lastSeq: monitor.activity.lastSeq,
      },
    };
  },
});
