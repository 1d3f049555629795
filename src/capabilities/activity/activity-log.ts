// The bridge's activity log: the last 500 entries (tool calls and lifecycle events) in a ring,
// cumulative counters per tool for /metrics, and listeners for live views (/stream,
// watchActivityLog). One per bridge, created by the bridge and fed from the event bus.
//
// Appending, for other areas (plugins, automation): `log.append({ source, event, detail })`, e.g.
// `log.append({ source: "automation", event: "hook.skipped", detail: { hook: "onGitCommit", reason: "cooldown" } })`.
// The detail keeps at most 12 short scalar fields; fields named like secrets or content are dropped.
import { cleanDetail, type ActivityEntry, type CallRecord, type LifecycleEntry, type ToolCallEntry } from "./activity-entry.ts";
import { RingBuffer } from "./ring-buffer.ts";

export const ACTIVITY_CAPACITY = 500;
/** Upper bounds of the latency histogram, in ms (Prometheus `le`, written in seconds). */
export const LATENCY_BUCKETS_MS: readonly number[] = [5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10_000, 30_000];

/** Since the bridge started, per tool: what /metrics counts (the ring forgets, these never do). */
export interface ToolTotals {
  calls: number;
  errors: number;
  sumMs: number;
  /** Calls at or under each of LATENCY_BUCKETS_MS (cumulative, as Prometheus wants them). */
  buckets: number[];
}

export interface ActivityLogOptions {
  capacity?: number;
  now?: () => number;
  /** The toolset of a tool, for per-toolset figures. */
  toolsetOf?: (tool: string) => string | undefined;
  /** The MCP client's name of a session, when known. */
  clientOf?: (session: string) => string | undefined;
}

type Listener = (entry: ActivityEntry) => void;

/** What another area appends: who (`source`), what happened (`event`, dotted), and short facts. */
export interface AppendedEvent {
  source: string;
  event: string;
  detail?: Readonly<Record<string, unknown>>;
}

export class ActivityLog {
  private readonly ring: RingBuffer<ActivityEntry>;
  private readonly listeners = new Set<Listener>();
  private readonly perTool = new Map<string, ToolTotals>();
  private readonly eventCounts = new Map<string, number>();
  private seq = 0;
  readonly startedAt: number;

  constructor(private readonly opts: ActivityLogOptions = {}) {
    this.ring = new RingBuffer(opts.capacity ?? ACTIVITY_CAPACITY);
    this.startedAt = this.now();
  }

  get capacity(): number {
    return this.ring.capacity;
  }

  /** The seq of the newest entry (0 before any). */
  get lastSeq(): number {
    return this.seq;
  }

  recordCall(call: CallRecord): ToolCallEntry {
    const entry: ToolCallEntry = {
      kind: "call",
      seq: ++this.seq,
      at: this.now(),
      tool: call.tool,
      toolset: this.opts.toolsetOf?.(call.tool),
      session: call.session,
      client: this.opts.clientOf?.(call.session),
      durationMs: Math.max(0, Math.round(call.durationMs)),
      outcome: call.outcome,
      resultChars: call.resultChars,
    };
    const totals = this.perTool.get(entry.tool) ?? { calls: 0, errors: 0, sumMs: 0, buckets: LATENCY_BUCKETS_MS.map(() => 0) };
    totals.calls += 1;
    if (entry.outcome !== "ok") totals.errors += 1;
    totals.sumMs += entry.durationMs;
    LATENCY_BUCKETS_MS.forEach((le, i) => {
      if (entry.durationMs <= le) totals.buckets[i] = (totals.buckets[i] ?? 0) + 1;
    });
    this.perTool.set(entry.tool, totals);
    this.add(entry);
    return entry;
  }

  /** A lifecycle event or another area's decision (see the header for the rules of `detail`). */
  append(what: AppendedEvent): LifecycleEntry {
    const { source, event } = what;
    const entry: LifecycleEntry = { kind: "event", seq: ++this.seq, at: this.now(), source, event, detail: cleanDetail(what.detail) };
    this.eventCounts.set(event, (this.eventCounts.get(event) ?? 0) + 1);
    this.add(entry);
    return entry;
  }

  /** Entries kept now, oldest first; `after` keeps only those with a greater seq. */
  entries(after = 0): ActivityEntry[] {
    const all = this.ring.toArray();
    return after <= 0 ? all : all.filter((e) => e.seq > after);
  }

  calls(): ToolCallEntry[] {
    return this.ring.toArray().filter((e): e is ToolCallEntry => e.kind === "call");
  }

  totals(): ReadonlyMap<string, Readonly<ToolTotals>> {
    return this.perTool;
  }

  /** How often each lifecycle event was appended since the bridge started. */
  eventTotals(): ReadonlyMap<string, number> {
    return this.eventCounts;
  }

  /** Called with every new entry; returns the function that unsubscribes. A throwing listener is dropped. */
  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Entries after `after`, at once when there are some, else the first that comes, or [] when
   * `signal` aborts or `timeoutMs` passes first.
   */
  next(after: number, opts: { signal: AbortSignal; timeoutMs: number }): Promise<ActivityEntry[]> {
    const ready = this.entries(after);
    if (ready.length > 0 || opts.signal.aborted) return Promise.resolve(ready);
    return new Promise((resolve) => {
      const finish = (found: ActivityEntry[]) => {
        clearTimeout(timer);
        unsubscribe();
        opts.signal.removeEventListener("abort", onAbort);
        resolve(found);
      };
      const onAbort = () => finish([]);
      const unsubscribe = this.subscribe(() => finish(this.entries(after)));
      const timer = setTimeout(() => finish([]), opts.timeoutMs);
      opts.signal.addEventListener("abort", onAbort, { once: true });
    });
  }

  /**
   * Puts back entries read from the persisted file, before what was recorded since; those are
   * numbered again after the restored ones, so seq keeps increasing along the ring.
   */
  restore(entries: readonly ActivityEntry[]): void {
    const kept = this.ring.toArray();
    this.ring.clear();
    this.seq = entries.reduce((max, e) => Math.max(max, e.seq), 0);
    for (const entry of entries) this.ring.push(entry);
    for (const entry of kept) this.ring.push({ ...entry, seq: ++this.seq });
  }

  /** The bridge stops: live views end. */
  dispose(): void {
    this.listeners.clear();
  }

  private add(entry: ActivityEntry): void {
    this.ring.push(entry);
    for (const listener of [...this.listeners]) {
      try {
        listener(entry);
      } catch {
        this.listeners.delete(listener);
      }
    }
  }

  private now(): number {
    return this.opts.now?.() ?? Date.now();
  }
}
