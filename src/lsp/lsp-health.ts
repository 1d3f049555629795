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
