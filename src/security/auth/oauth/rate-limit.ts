// A token bucket per endpoint: registration, token, approval and revocation are each limited for
// the whole bridge. Behind a proxy every client has the proxy's address, and the web-standard
// Request carries none, so a per-address limit would be a guess; a global one is honest and still
// stops a flood (and, on the approval form, guessing the owner's token).
export interface RateLimit {
  /** Tokens refilled per minute. */
  perMinute: number;
  /** Bucket size: how many may come at once. */
  burst: number;
}

export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    private readonly limit: RateLimit,
    private readonly now: () => number = Date.now,
  ) {
    this.tokens = limit.burst;
    this.last = now();
  }

  /** Takes one token: 0 when granted, else the milliseconds until one is free. */
  take(): number {
    const now = this.now();
    this.tokens = Math.min(this.limit.burst, this.tokens + ((now - this.last) * this.limit.perMinute) / 60_000);
    this.last = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return 0;
    }
    return Math.ceil(((1 - this.tokens) * 60_000) / this.limit.perMinute);
  }
}
