// What the bridge's own tools (getBridgeStatus, getActivityLog, bridgeDoctor...) and the dashboard
// read about the bridge beyond the other capabilities: its activity log, its sessions, who it is,
// and the `doctor` checks. The bridge builds one; tool contexts built without it (tests of other
// areas) have none, and the bridge tools then say so.
import type { ActivityLog } from "./activity-log.ts";

export interface SessionView {
  id: string;
  /** "websocket" (Claude Code, the shim) or "http" (Streamable HTTP). */
  transport: "websocket" | "http";
  /** The client's name from initialize, when it has sent one. */
  client: string | undefined;
  openedAt: number;
  /**
   * A WebSocket session whose socket closed waits this long (epoch ms) for its client to come back
   * (reattach keeps its state); absent while connected, and for HTTP sessions.
   */
  graceEndsAt?: number;
}

export interface SessionsView {
  /** Open sessions, oldest first. */
  list: SessionView[];
  /** WebSocket sessions with a socket now, and those waiting in their grace period for their client. */
  websocket: { active: number; inGrace: number; graceMs: number };
  http: number;
}

export interface BridgeIdentity {
  version: string;
  runtime: string;
  workspace: string;
  port: number;
  startedAt: number;
  tools: number;
}

/** One fact `doctor` checked (src/cli/doctor-report.ts has the same shape). */
export interface DoctorCheck {
  area: string;
  status: "ok" | "info" | "warn" | "fail";
  summary: string;
  fix?: string;
}

export interface BridgeMonitor {
  readonly activity: ActivityLog;
  identity(): BridgeIdentity;
  sessions(): SessionsView;
  /** The `doctor` command's checks for this bridge's workspace; undefined when the bridge was started without what they need. */
  readonly doctor: ((signal: AbortSignal) => Promise<DoctorCheck[]>) | undefined;
}
