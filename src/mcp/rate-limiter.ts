// Sliding-window rate limit over the last minute as a ring of timestamps: O(1) per check and
// exact, unlike a fixed window that lets 2x the limit through at a window edge.
export class RateLimiter {
  private readonly stamps: Float64Array;
  private next = 0;
  private count = 0;

  constructor(
    readonly limit: number,
    private readonly windowMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {
    this.stamps = new Float64Array(limit);
  }

  /** Takes a token if one is free; false when `limit` were taken within the window. */
  tryTake(): boolean {
    const now = this.now();
    if (this.count === this.limit) {
      // `next` points at the oldest stamp once the ring is full.
      const oldest = this.stamps[this.next] ?? 0;
      if (now - oldest < this.windowMs) return false;
    } else {
      this.count += 1;
    }
    this.stamps[this.next] = now;
    this.next = (this.next + 1) % this.limit;
    return true;
  }

  /** Milliseconds until a token frees up (0 when one is free now). */
  retryAfterMs(): number {
    if (this.count < this.limit) return 0;
    const oldest = this.stamps[this.next] ?? 0;
    return Math.max(0, this.windowMs - (this.now() - oldest));
  }
}
