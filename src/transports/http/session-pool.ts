// The Streamable HTTP session pool (seed ADR-0005): at most `max` sessions; when full, one is
// evicted (see makeRoom), never one with a call in flight; sessions idle for 10 minutes expire.
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

  /**
   * Makes room if needed; false only when every session has a call in flight.
   * First choice: the oldest session idle for over a minute (ADR-0005). Many clients never
   * DELETE (Claude Code's `mcp list`, the conformance runner) and would otherwise lock new
   * clients out, so next come the least recently active sessions without a call in flight,
   * those without an open GET stream first. An evicted client gets 404 + -32001 on its next
   * request and re-initializes, as the spec intends.
   */
  makeRoom(): boolean {
    if (this.sessions.size < this.max) return true;
    const quiet = (s: HttpSession) => s.mcp.inFlight === 0;
    const victim =
      this.oldest((s) => this.idleFor(s, EVICTABLE_IDLE_MS)) ??
      this.oldest((s) => quiet(s) && !s.standalone?.connected) ??
      this.oldest(quiet);
    if (!victim) return false;
    this.remove(victim.id);
    return true;
  }

  private oldest(eligible: (session: HttpSession) => boolean): HttpSession | undefined {
    let oldest: HttpSession | undefined;
    for (const session of this.sessions.values()) {
      if (eligible(session) && (!oldest || session.mcp.lastActivity < oldest.mcp.lastActivity)) oldest = session;
    }
    return oldest;
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
