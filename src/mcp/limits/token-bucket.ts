// Rate limits as token buckets: a bucket holds up to `burst` tokens and refills at
// `perMinute`, so an agent's burst of parallel calls is served while a sustained flood is not. A
// sliding window of the last minute refused call 61 with "wait 60 s"; a bucket says "retry in 1 s".
interface BucketSpec {
  /** Sustained rate. */
  perMinute: number;
  /** Tokens available at once (the largest burst). */
  burst: number;
}

export class TokenBucket {
  private tokens: number;
  private updatedAt: number;

  constructor(
    readonly spec: BucketSpec,
    /** The bucket's clock; takeFromAll reads a clock its buckets share once. */
    readonly now: () => number = Date.now,
  ) {
    this.tokens = spec.burst;
    this.updatedAt = now();
  }

  /** Whether a token is there right now (after refilling). */
  has(): boolean {
    this.refill();
    return this.tokens >= 1;
  }

  /** Spends a token; call only after has() said yes. */
  take(): void {
    this.refill();
    this.spendRefilled();
  }

  /**
   * Spends a token without reading the clock again: for right after retryAfterMs() said 0 within the
   * same synchronous step (takeFromAll, which runs for every message a session receives).
   */
  spendRefilled(): void {
    this.tokens = Math.max(0, this.tokens - 1);
  }

  /** Milliseconds until a token is there (0 when one is). */
  retryAfterMs(): number {
    return this.retryAfterMsAt(this.now());
  }

  /** retryAfterMs() at `now`, a reading of this bucket's clock taken in the same synchronous step. */
  retryAfterMsAt(now: number): number {
    this.refill(now);
    return this.tokens >= 1 ? 0 : Math.ceil(((1 - this.tokens) * 60_000) / this.spec.perMinute);
  }

  private refill(now = this.now()): void {
    const elapsed = Math.max(0, now - this.updatedAt);
    this.tokens = Math.min(this.spec.burst, this.tokens + (elapsed * this.spec.perMinute) / 60_000);
    this.updatedAt = now;
  }
}

/**
 * Takes one token from every bucket, or from none: a call refused by one budget (the session's, or
 * the credential's shared by all its sessions) spends nothing from the others. Returns 0 when
 * taken, else the milliseconds until all of them have a token.
 */
export function takeFromAll(buckets: readonly TokenBucket[]): number {
  // A loop, not Math.max(...map()): this runs for every message a session receives. A clock the
  // buckets share (the session's and its credential's) is read once, not once per bucket.
  let wait = 0;
  let clock: (() => number) | undefined;
  let now = 0;
  for (const bucket of buckets) {
    if (bucket.now !== clock) {
      clock = bucket.now;
      now = clock();
    }
    wait = Math.max(wait, bucket.retryAfterMsAt(now));
  }
  if (wait > 0) return wait;
  for (const bucket of buckets) bucket.spendRefilled();
  return 0;
}
