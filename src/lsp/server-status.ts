// What the server pool (server-pool.ts) reports of its servers, for status, doctor and
// getToolCapabilities: each server's state and memory, and the pool's caps.
import type { ResolvedCommand } from "./command-resolver.ts";
import type { LanguageServer } from "./language-server.ts";

export interface ServerStatus {
  id: string;
  root: string;
  state: "starting" | "running" | "idle" | "evicted" | "crashed" | "failed";
  server?: string;
  pid?: number;
  command: string;
  from: ResolvedCommand["from"];
  openDocuments: number;
  busyWith: string[];
  crashes: number;
  lastError?: string;
  /** Resident memory of the server and the processes it started, when last measured (Linux). */
  memoryBytes?: number;
}

export interface PoolLimits {
  maxServers: number;
  maxMemoryBytes: number;
  /** The running servers' resident memory together, when it could be read for each. */
  memoryBytes?: number;
}

/** What the pool keeps of one (server, root) that its status shows. */
interface PoolEntry {
  spec: { id: string };
  root: string;
  command: ResolvedCommand;
  server: LanguageServer | undefined;
  starting: Promise<LanguageServer> | undefined;
  crashes: readonly number[];
  lastError: string | undefined;
  idle: boolean;
  evicted: boolean;
  memory: number | undefined;
}

/** `failed`: it crashed too often lately to be started again. */
export function serverStatus(e: PoolEntry, opts: { failed: boolean }): ServerStatus {
  const server = e.server;
  const state =
    e.starting !== undefined
      ? "starting"
      : server !== undefined
        ? "running"
        : e.idle
          ? "idle"
          : e.evicted
            ? "evicted"
            : opts.failed
              ? "failed"
              : "crashed";
  return {
    id: e.spec.id,
    root: e.root,
    state,
    ...(server === undefined ? {} : { server: server.serverName, ...(server.pid === undefined ? {} : { pid: server.pid }) }),
    command: e.command.command,
    from: e.command.from,
    openDocuments: server?.openDocuments ?? 0,
    busyWith: server?.progress.busyWith() ?? [],
    crashes: e.crashes.length,
    ...(e.lastError === undefined ? {} : { lastError: e.lastError }),
    ...(server === undefined || e.memory === undefined ? {} : { memoryBytes: e.memory }),
  };
}
