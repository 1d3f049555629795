// The Streamable HTTP session pool (seed ADR-0005): at most `max` sessions. A session in use is
// never evicted: not one with a call in flight, nor one active within the last EVICTABLE_IDLE_MS
// (an evicted client gets 404, and the official SDK client never re-initializes after that).
// When the pool is full and none can go, a new client is told when to retry instead.
// Sessions idle for 10 minutes expire.
import type { HttpSession } from "./http-session.ts";

const EVICTABLE_IDLE_MS = 60_000;
const IDLE_TTL_MS = 10 * 60_000;

type Room = { ok: true } | { ok: false; retryAfterSeconds: number };

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
   * Makes room for one more session if needed. Many clients never DELETE (Claude Code's
   * `claude mcp list`, the conformance runner, a crashed client), so a full pool evicts the oldest
   * session idle for over EVICTABLE_IDLE_MS, those without an open GET stream first; that client
   * gets 404 + -32001 on its next request and re-initializes, as the spec intends. When every
   * session is in use, the answer says in how many seconds the first one can be evicted.
   */
  makeRoom(): Room {
    if (this.sessions.size < this.max) return { ok: true };
    const evictable = (s: HttpSession) => this.idleFor(s, EVICTABLE_IDLE_MS);
    const victim = this.oldest((s) => evictable(s) && !s.standalone?.connected) ?? this.oldest(evictable);
    if (!victim) return { ok: false, retryAfterSeconds: this.secondsUntilEvictable() };
    this.remove(victim.id);
    return { ok: true };
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

  private oldest(eligible: (session: HttpSession) => boolean): HttpSession | undefined {
    let oldest: HttpSession | undefined;
    for (const session of this.sessions.values()) {
      if (eligible(session) && (!oldest || session.mcp.lastActivity < oldest.mcp.lastActivity)) oldest = session;
    }
    return oldest;
  }

  /**
   * The first moment a session passes EVICTABLE_IDLE_MS. A session with a call in flight needs
   * the call to end and then a full idle period, so it counts as EVICTABLE_IDLE_MS from now.
   */
  private secondsUntilEvictable(): number {
    let soonest = EVICTABLE_IDLE_MS;
    for (const session of this.sessions.values()) {
      if (session.mcp.inFlight > 0) continue;
      soonest = Math.min(soonest, session.mcp.lastActivity + EVICTABLE_IDLE_MS + 1 - this.now());
    }
    return Math.max(1, Math.ceil(soonest / 1000));
  }

  private idleFor(session: HttpSession, ms: number): boolean {
    return session.mcp.inFlight === 0 && this.now() - session.mcp.lastActivity > ms;
  }
}
