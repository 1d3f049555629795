// Sessions of socket clients (Claude Code, the stdio shim), keyed by the client's
// `x-claude-code-session-id`. When a socket closes the session waits out a grace period; a
// client that comes back with the same id in time gets the same session (initialized state,
// log level, counters). Generations keep a stale socket from touching a reattached session
// (seed ADR-0002).
import type { Logger } from "../log.ts";
import type { McpSession, MessageSink, SessionState } from "./session.ts";

interface Entry {
  session: McpSession;
  clientId: string | undefined;
  generation: number;
  graceTimer: ReturnType<typeof setTimeout> | undefined;
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

export interface SessionStoreOptions {
  createSession(): McpSession;
  graceMs: number;
  logger: Logger;
}

/** One session as a checkpoint records it (src/mcp/session-checkpoint.ts). */
export interface CheckpointedSession {
  clientId: string;
  state: SessionState;
}

/** A client id must be a short visible-ASCII token (a UUID from the shim or Claude Code). */
export const CLIENT_ID = /^[A-Za-z0-9._:-]{8,128}$/;

export class SessionStore {
  private readonly byClient = new Map<string, Entry>();
  private readonly anonymous = new Set<Entry>();

  constructor(private readonly opts: SessionStoreOptions) {}

  get graceMs(): number {
    return this.opts.graceMs;
  }

  /** Sessions with a socket attached right now. */
  get active(): number {
    return [...this.entries()].filter((e) => e.graceTimer === undefined).length;
  }

  get inGrace(): number {
    return [...this.entries()].filter((e) => e.graceTimer !== undefined).length;
  }

  /**
   * Gives a newly opened socket its session: the one `clientId` names if it is still kept,
   * else a new one. A socket still attached to that session is told to go (`evictSocket`).
   */
  attach(clientId: string | undefined, sink: MessageSink, evictSocket: () => void): Attachment {
    const existing = clientId === undefined ? undefined : this.byClient.get(clientId);
    let entry: Entry;
    if (existing && !existing.session.closed) {
      entry = existing;
      if (entry.graceTimer) clearTimeout(entry.graceTimer);
      entry.graceTimer = undefined;
      entry.evictSocket?.();
      entry.generation += 1;
      this.opts.logger.info("session resumed", { session: entry.session.id, generation: entry.generation });
    } else {
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
        else entry.graceTimer = setTimeout(() => this.drop(entry, "grace period over"), this.opts.graceMs);
      },
      end: (reason) => {
        if (current()) this.drop(entry, reason);
      },
    };
  }

  /** The initialized sessions that have a client id, attached or in grace: what a checkpoint keeps. */
  snapshot(): CheckpointedSession[] {
    const out: CheckpointedSession[] = [];
    for (const [clientId, entry] of this.byClient) {
      const state = entry.session.closed ? undefined : entry.session.exportState();
      if (state !== undefined) out.push({ clientId, state });
    }
    return out;
  }

  /**
   * Recreates checkpointed sessions after a restart, each in a fresh grace period, so a client
   * that reattaches with its id finds its session initialized. Ids already in use are left alone.
   */
  restore(sessions: readonly CheckpointedSession[]): number {
    let restored = 0;
    for (const { clientId, state } of sessions) {
      if (!CLIENT_ID.test(clientId) || this.byClient.has(clientId)) continue;
      const session = this.opts.createSession();
      session.importState(state);
      const entry: Entry = { session, clientId, generation: 1, graceTimer: undefined, evictSocket: undefined };
      entry.graceTimer = setTimeout(() => this.drop(entry, "grace period over (restored from checkpoint)"), this.opts.graceMs);
      this.byClient.set(clientId, entry);
      restored += 1;
    }
    return restored;
  }

  closeAll(): void {
    for (const entry of [...this.entries()]) this.drop(entry, "bridge shutting down");
  }

  private drop(entry: Entry, reason: string): void {
    if (entry.graceTimer) clearTimeout(entry.graceTimer);
    entry.graceTimer = undefined;
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
