// Sessions of socket clients (Claude Code, the stdio shim), keyed by the client's
// `x-claude-code-session-id`. When a socket closes the session waits out a grace period; a
// client that comes back with the same id in time gets the same session (initialized state,
// log level, counters). Generations keep a stale socket from touching a reattached session
// (seed ADR-0002).
//
// The store holds at most `maxSessions` (connected or in grace), so clients that connect and drop
// with ever new ids cannot grow it without bound: a newcomer takes the place of the session that
// entered its grace period first. A connected session is never dropped for a newcomer; when they
// alone fill the store, hasRoom() is false and the socket should be refused before its upgrade.
import { DEFAULT_CONFIG } from "../../config/schema.ts";
import type { Logger } from "../../log.ts";
import type { MessageSink } from "./message-sink.ts";
import type { McpSession, SessionState } from "./session.ts";

interface Entry {
  session: McpSession;
  clientId: string | undefined;
  generation: number;
  graceTimer: ReturnType<typeof setTimeout> | undefined;
  /** When the grace period ends (epoch ms), while the session waits in it. */
  graceEndsAt?: number;
  /** Ends the socket currently attached (for a takeover by a newer connection). */
  evictSocket: (() => void) | undefined;
}

export interface Attachment {
  readonly session: McpSession;
  readonly generation: number;
  /** True when an existing session was picked up again. */
  readonly resumed: boolean;
  /** Whether this socket is still the session's current one. */
  current(): boolean;
  /** This socket closed: start the grace period (an anonymous session ends at once). */
  detach(): void;
  /** This socket closed and its client said it is done: end the session now, no grace. */
  end(reason: string): void;
}

interface SessionStoreOptions {
  createSession(): McpSession;
  graceMs: number;
  logger: Logger;
  /** Sessions kept at once, connected or in grace (default: the --max-ws-sessions default). */
  maxSessions?: number;
}

/** What a refused socket is told to wait: a connected client that drops makes room at once. */
export const STORE_FULL_RETRY_AFTER_SECONDS = 10;

/** One session as a checkpoint records it (src/mcp/sessions/session-checkpoint.ts). */
export interface CheckpointedSession {
  clientId: string;
  state: SessionState;
}

/** A client id must be a short visible-ASCII token (a UUID from the shim or Claude Code). */
export const CLIENT_ID = /^[A-Za-z0-9._:-]{8,128}$/;

export class SessionStore {
  private readonly byClient = new Map<string, Entry>();
  private readonly anonymous = new Set<Entry>();
  /** Sessions in their grace period, in the order they entered it (oldest first). */
  private readonly graceOrder = new Set<Entry>();
  readonly maxSessions: number;

  constructor(private readonly opts: SessionStoreOptions) {
    this.maxSessions = opts.maxSessions ?? DEFAULT_CONFIG.maxWsSessions;
  }

  get graceMs(): number {
    return this.opts.graceMs;
  }

  /** Sessions with a socket attached right now. */
  get active(): number {
    return this.size - this.graceOrder.size;
  }

  get inGrace(): number {
    return this.graceOrder.size;
  }

  /** The sessions waiting in their grace period, by session id: when each is dropped unless its client comes back (epoch ms). */
  graceEnds(): Map<string, number> {
    return new Map([...this.graceOrder].map((e) => [e.session.id, e.graceEndsAt ?? 0]));
  }

  private get size(): number {
    return this.byClient.size + this.anonymous.size;
  }

  /**
   * Whether a socket with this client id would get a session: its own one is still kept, or the
   * store has a free place, or a session in grace can give its place up. False only when
   * connected sessions fill the store; the socket should then be refused (HTTP 503).
   */
  hasRoom(clientId: string | undefined): boolean {
    const existing = clientId === undefined ? undefined : this.byClient.get(clientId);
    return (existing !== undefined && !existing.session.closed) || this.size < this.maxSessions || this.graceOrder.size > 0;
  }

  /**
   * Gives a newly opened socket its session: the one `clientId` names if it is still kept,
   * else a new one. A socket still attached to that session is told to go (`evictSocket`).
   */
  attach(clientId: string | undefined, socket: { sink: MessageSink; evictSocket: () => void }): Attachment {
    const { sink, evictSocket } = socket;
    const existing = clientId === undefined ? undefined : this.byClient.get(clientId);
    let entry: Entry;
    if (existing && !existing.session.closed) {
      entry = existing;
      this.endGrace(entry);
      entry.evictSocket?.();
      entry.generation += 1;
      this.opts.logger.info("session resumed", { session: entry.session.id, generation: entry.generation });
    } else {
      this.makeRoom();
      entry = { session: this.opts.createSession(), clientId, generation: 1, graceTimer: undefined, evictSocket: undefined };
      if (clientId === undefined) this.anonymous.add(entry);
      else this.byClient.set(clientId, entry);
    }
    entry.evictSocket = evictSocket;
    entry.session.attach(sink);
    const generation = entry.generation;
    const current = () => entry.generation === generation && !entry.session.closed;
    return {
      session: entry.session,
      generation,
      resumed: entry === existing,
      current,
      detach: () => {
        if (!current()) return; // a stale socket must not touch a reattached session
        entry.session.detach(sink);
        entry.evictSocket = undefined;
        if (entry.clientId === undefined) this.drop(entry, "socket closed");
        else this.startGrace(entry, "grace period over");
      },
      end: (reason) => {
        if (current()) this.drop(entry, reason);
      },
    };
  }

  /**
   * The initialized sessions that have a client id, attached or in grace: what a checkpoint keeps.
   * At most `limit`, the most recently active first.
   */
  snapshot(limit = this.maxSessions): CheckpointedSession[] {
    const kept: Array<{ clientId: string; state: SessionState; lastActivity: number }> = [];
    // Newest entries first, so the stable sort below puts the newer of two equally active first.
    for (const [clientId, entry] of [...this.byClient].reverse()) {
      const state = entry.session.closed ? undefined : entry.session.exportState();
      if (state !== undefined) kept.push({ clientId, state, lastActivity: entry.session.lastActivity });
    }
    kept.sort((a, b) => b.lastActivity - a.lastActivity);
    return kept.slice(0, limit).map(({ clientId, state }) => ({ clientId, state }));
  }

  /**
   * Recreates checkpointed sessions after a restart, each in a fresh grace period, so a client
   * that reattaches with its id finds its session initialized. Ids already in use are left alone,
   * and only as many as there are free places (a checkpoint lists the most recently active first).
   */
  restore(sessions: readonly CheckpointedSession[]): number {
    let restored = 0;
    for (const { clientId, state } of sessions) {
      if (this.size >= this.maxSessions) break;
      if (!CLIENT_ID.test(clientId) || this.byClient.has(clientId)) continue;
      const session = this.opts.createSession();
      session.importState(state);
      const entry: Entry = { session, clientId, generation: 1, graceTimer: undefined, evictSocket: undefined };
      this.byClient.set(clientId, entry);
      this.startGrace(entry, "grace period over (restored from checkpoint)");
      restored += 1;
    }
    return restored;
  }

  closeAll(): void {
    for (const entry of [...this.entries()]) this.drop(entry, "bridge shutting down");
  }

  /**
   * Frees a place for a new session if the store is full: the session that entered its grace
   * period first gives it up. When connected sessions alone fill the store the newcomer is let in
   * over the bound (the socket should have asked hasRoom() before its upgrade; only two upgrades
   * racing each other get here).
   */
  private makeRoom(): void {
    if (this.size < this.maxSessions) return;
    const oldest = this.graceOrder.values().next();
    if (!oldest.done) {
      this.drop(oldest.value, "made room for a new session (--max-ws-sessions)");
      return;
    }
    this.opts.logger.warn(
      `all ${this.maxSessions} WebSocket session places (--max-ws-sessions) are held by connected clients; letting one more in`,
    );
  }

  private startGrace(entry: Entry, reason: string): void {
    entry.graceTimer = setTimeout(() => this.drop(entry, reason), this.opts.graceMs);
    entry.graceEndsAt = Date.now() + this.opts.graceMs;
    this.graceOrder.add(entry);
  }

  private endGrace(entry: Entry): void {
    if (entry.graceTimer) clearTimeout(entry.graceTimer);
    entry.graceTimer = undefined;
    entry.graceEndsAt = undefined;
    this.graceOrder.delete(entry);
  }

  private drop(entry: Entry, reason: string): void {
    this.endGrace(entry);
    entry.session.close(reason);
    if (entry.clientId !== undefined && this.byClient.get(entry.clientId) === entry) this.byClient.delete(entry.clientId);
    this.anonymous.delete(entry);
    this.opts.logger.debug("session ended", { session: entry.session.id, reason, calls: entry.session.stats.callCount });
  }

  private *entries(): IterableIterator<Entry> {
    yield* this.byClient.values();
    yield* this.anonymous;
  }
}
