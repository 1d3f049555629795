// The language servers as /health reports them (and `claude-ide-bridge status` prints): each
// server's state and resident memory, and the pool's caps, so a user sees what the servers hold
// before the memory cap stops the least recently used one.
import type { LspStatus } from "./lsp-service-types.ts";

export interface LanguageServerHealth {
  servers: { id: string; root: string; state: string; memoryBytes: number | null }[];
  maxServers: number;
  maxMemoryBytes: number;
  /** The running servers' memory together; null where it cannot be read (no /proc). */
  memoryBytes: number | null;
}

export function languageServerHealth(status: LspStatus): LanguageServerHealth {
  return {
    servers: status.servers.map((s) => ({ id: s.id, root: s.root, state: s.state, memoryBytes: s.memoryBytes ?? null })),
    maxServers: status.limits.maxServers,
    maxMemoryBytes: status.limits.maxMemoryBytes,
    memoryBytes: status.limits.memoryBytes ?? null,
  };
}

/**
 * The language servers of a /health body in words: the pool (how many, their memory together, the
 * caps) and one line per server. Undefined when the body has none (an older bridge).
 */
export function describeLanguageServers(value: unknown): { pool: string; servers: string[]; nearCap: boolean } | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { servers, maxServers, maxMemoryBytes, memoryBytes } = value as Record<string, unknown>;
  const list = Array.isArray(servers) ? (servers as Record<string, unknown>[]) : [];
  const near = typeof memoryBytes === "number" && typeof maxMemoryBytes === "number" && memoryBytes > NEAR_CAP * maxMemoryBytes;
  return {
    pool: `${list.length} known, ${mib(memoryBytes)} together; caps ${String(maxServers)} servers, ${mib(maxMemoryBytes)}`,
    servers: list.map((s) => `${String(s.id)} (${String(s.state)}, ${mib(s.memoryBytes)}) for ${String(s.root)}`),
    nearCap: near,
  };
}

/** Past this share of the memory cap, the next server to start stops the least recently used one. */
const NEAR_CAP = 0.8;

function mib(n: unknown): string {
  return typeof n === "number" ? `${Math.round(n / 2 ** 20)} MiB` : "memory unknown";
}
