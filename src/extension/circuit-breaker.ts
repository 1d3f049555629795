// The extension's circuit breaker: an extension host that stops answering (a hung VS Code, a
// debugger paused in it) must not make every tool wait out its timeout. After THRESHOLD timeouts
// within WINDOW_MS it opens: requests fail at once, so tools with a headless path use it. After a
// backoff (exponential in how often it opened, with full jitter so reconnecting bridges do not
// probe in step) it lets one request through (half-open); an answer closes it, a timeout opens it
// again for longer. Answers that are errors are answers: only silence counts.
const THRESHOLD = 3;
const WINDOW_MS = 30_000;
const BASE_BACKOFF_MS = 1_000;
const MAX_BACKOFF_MS = 30_000;

export type BreakerState = "closed" | "open" | "half-open";

export interface BreakerOptions {
  now?: () => number;
  /** In [0, 1): the jitter (Math.random unless a test fixes it). */
  random?: () => number;
}

export class CircuitBreaker {
  private timeouts: number[] = [];
  private opens = 0;
  private openUntil = 0;
  private probing = false;
  private current: BreakerState = "closed";
  private readonly now: () => number;
  private readonly random: () => number;

  constructor(opts: BreakerOptions = {}) {
    this.now = opts.now ?? Date.now;
    this.random = opts.random ?? Math.random;
  }

  get state(): BreakerState {
    if (this.current === "open" && this.now() >= this.openUntil) return "half-open";
    return this.current;
  }

  /** Whether a request may go out now; in half-open, only one (the probe) until it is settled. */
  allow(): boolean {
    const state = this.state;
    if (state === "closed") return true;
    if (state === "open") return false;
    if (this.probing) return false;
    this.current = "half-open";
    this.probing = true;
    return true;
  }

  /** Milliseconds until a probe may go out; 0 when closed or half-open. */
  retryInMs(): number {
    return this.current === "open" ? Math.max(0, this.openUntil - this.now()) : 0;
  }

  recordAnswer(): void {
    this.probing = false;
    if (this.current !== "closed") {
      this.current = "closed";
      this.opens = 0;
    }
    this.timeouts = [];
  }

  recordTimeout(): void {
    const now = this.now();
    if (this.current === "half-open" || this.probing) {
      this.probing = false;
      this.open(now);
      return;
    }
    this.timeouts = this.timeouts.filter((t) => now - t < WINDOW_MS);
    this.timeouts.push(now);
    if (this.current === "closed" && this.timeouts.length >= THRESHOLD) this.open(now);
  }

  /** A new connection starts with a clean slate. */
  reset(): void {
    this.timeouts = [];
    this.opens = 0;
    this.openUntil = 0;
    this.probing = false;
    this.current = "closed";
  }

  private open(now: number): void {
    const cap = Math.min(MAX_BACKOFF_MS, BASE_BACKOFF_MS * 2 ** this.opens);
    this.opens += 1;
    this.openUntil = now + Math.round(this.random() * cap);
    this.timeouts = [];
    this.current = "open";
  }
}
