// The bridge's monitoring, built at start (small: the pages and /metrics load on first request):
// the activity log fed from the event bus (tool calls, rate-limit refusals), the extension's
// connects and disconnects, language servers' state changes and crashes (read from the pool every
// 5 s, in memory), and the sessions the bridge opened, with their transport and client.
import { ActivityLog } from "../capabilities/activity/activity-log.ts";
import type { BridgeIdentity, BridgeMonitor, DoctorCheck, SessionView } from "../capabilities/activity/bridge-monitor.ts";
import type { EventBus } from "../capabilities/events/event-bus.ts";
import type { ExtensionClient } from "../extension/extension-client.ts";
import type { LspService } from "../lsp/lsp-service.ts";

const LSP_POLL_MS = 5000;

interface TrackedSession {
  readonly view: Omit<SessionView, "client">;
  readonly clientName: () => string | undefined;
}

export interface MonitoringOptions {
  events: EventBus;
  extension: Pick<ExtensionClient, "on">;
  lsp: Pick<LspService, "status">;
  toolsetOf(tool: string): string | undefined;
  identity(): BridgeIdentity;
  websocket(): { active: number; inGrace: number; graceMs: number };
  /** WebSocket sessions in their grace period: session id -> when it ends (epoch ms). */
  graceEnds?(): ReadonlyMap<string, number>;
  doctor?: (signal: AbortSignal) => Promise<DoctorCheck[]>;
}

export interface Monitoring {
  readonly monitor: BridgeMonitor;
  /** A session was created; `clientName` reads its clientInfo once it has initialized. */
  opened(id: string, opts: { transport: SessionView["transport"]; clientName: () => string | undefined }): void;
  closed(id: string): void;
  /** Starts watching the language servers (a timer): once the bridge serves, so a failed start leaves none behind. */
  start(): void;
  stop(): void;
}

export function startMonitoring(opts: MonitoringOptions): Monitoring {
  const sessions = new Map<string, TrackedSession>();
  const activity = new ActivityLog({
    toolsetOf: opts.toolsetOf,
    clientOf: (id) => sessions.get(id)?.clientName(),
  });
  const unsubscribe = [
    opts.events.subscribe("tool.called", (call) => activity.recordCall(call)),
    opts.events.subscribe("rate.limited", (refusal) => activity.append({ source: "limits", event: "rate.limited", detail: refusal })),
    opts.extension.on((event) => {
      if (event.type !== "push") activity.append({ source: "extension", event: `extension.${event.type}` });
    }),
  ];
  const lspStates = new Map<string, { state: string; crashes: number }>();
  const pollLsp = () => {
    for (const server of opts.lsp.status().servers) {
      const key = `${server.id}\0${server.root}`;
      const before = lspStates.get(key);
      lspStates.set(key, { state: server.state, crashes: server.crashes });
      const detail = { server: server.id, root: server.root, state: server.state };
      if (before !== undefined && server.crashes > before.crashes)
        activity.append({ source: "lsp", event: "lsp.crashed", detail: { ...detail, crashes: server.crashes } });
      else if (before?.state !== server.state) activity.append({ source: "lsp", event: "lsp.state", detail });
    }
  };
  let timer: ReturnType<typeof setInterval> | undefined;
  const monitor: BridgeMonitor = {
    activity,
    identity: opts.identity,
    sessions: () => {
      const grace = opts.graceEnds?.() ?? new Map<string, number>();
      const list = [...sessions.values()].map((s) => {
        const graceEndsAt = grace.get(s.view.id);
        return { ...s.view, client: s.clientName(), ...(graceEndsAt === undefined ? {} : { graceEndsAt }) };
      });
      return { list, websocket: opts.websocket(), http: list.filter((s) => s.transport === "http").length };
    },
    doctor: opts.doctor,
  };
  return {
    monitor,
    opened(id, session) {
      sessions.set(id, { view: { id, transport: session.transport, openedAt: Date.now() }, clientName: session.clientName });
      activity.append({ source: "sessions", event: "session.opened", detail: { session: id, transport: session.transport } });
    },
    closed(id) {
      const session = sessions.get(id);
      if (session === undefined) return;
      sessions.delete(id);
      activity.append({
        source: "sessions",
        event: "session.closed",
        detail: { session: id, transport: session.view.transport, client: session.clientName() ?? null },
      });
    },
    start() {
      timer ??= setInterval(pollLsp, LSP_POLL_MS);
    },
    stop() {
      clearInterval(timer);
      for (const off of unsubscribe) off();
      activity.dispose();
    },
  };
}
