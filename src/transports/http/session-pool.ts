// The Streamable HTTP session pool (seed ADR-0005): at most `max` sessions; when full, the
// oldest session idle for over a minute is evicted, never one with a call in flight; sessions
// idle for 10 minutes expire.
import type { HttpSession } from "./http-session.ts";

export const EVICTABLE_IDLE_MS = 60_000;
export const IDLE_TTL_MS = 10 * 60_000;

export class SessionPool {
  private readonly sessions = new Map<string, HttpSession>();

  constructor(
    private readonly max: number,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.sessions.size;
  }

  get(id: string): HttpSession | undefined {
    return this.sessions.get(id);
  }

  values(): IterableIterator<HttpSession> {
    return this.sessions.values();
  }

  /** Makes room if needed; false when full of sessions that may not be evicted. */
  makeRoom(): boolean {
    if (this.sessions.size < this.max) return true;
    let oldest: HttpSession | undefined;
    for (const session of this.sessions.values()) {
      if (!this.idleFor(session, EVICTABLE_IDLE_MS)) continue;
      if (!oldest || session.mcp.lastActivity < oldest.mcp.lastActivity) oldest = session;
    }
    if (!oldest) return false;
    this.remove(oldest.id);
    return true;
  }

  add(session: HttpSession): void {
    this.sessions.set(session.id, session);
  }

  remove(id: string): boolean {
    const session = this.sessions.get(id);
    if (!session) return false;
    this.sessions.delete(id);
    session.close();
    return true;
  }

  /** Ends sessions idle past the TTL; returns how many. */
  sweep(): number {
    let removed = 0;
    for (const session of [...this.sessions.values()]) {
      if (this.idleFor(session, IDLE_TTL_MS) && this.remove(session.id)) removed += 1;
    }
    return removed;
  }

  closeAll(): void {
    for (const id of [...this.sessions.keys()]) this.remove(id);
  }

  private idleFor(session: HttpSession, ms: number): boolean {
    return session.mcp.inFlight === 0 && this.now() - session.mcp.lastActivity > ms;
  }
}
