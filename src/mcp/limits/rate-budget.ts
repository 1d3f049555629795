// Who pays for a request: the session, and the credential it authenticated with, whose
// budget all of that credential's sessions share, so opening more sessions (50 sockets) does not
// multiply what one token may do. The bridge has one token today, hence one credential budget; OAuth
// clients will each get their own.
import { ProtocolError, RpcCode } from "../../errors.ts";
import { TokenBucket } from "./token-bucket.ts";

export interface RateLimits {
  /** --request-rate-limit: JSON-RPC messages per minute per session. */
  requestsPerMinute: number;
  /** --tool-rate-limit: tool calls per minute per session, sustained. */
  toolCallsPerMinute: number;
}

/** A burst of this many times the per-minute tool rate is served at once (a parallel agent). */
const TOOL_BURST_FACTOR = 3;
/**
 * A credential may do this many sessions' worth, sustained and in a burst: several Claude Code
 * sessions, their subagents, and 20 busy HTTP clients for a while, but not the 50 sockets' worth
 * an attacker with the token could open.
 */
export const CREDENTIAL_FACTOR = 10;

export interface Budget {
  readonly requests: TokenBucket;
  readonly toolCalls: TokenBucket;
}

export function sessionBudget(limits: RateLimits, now?: () => number): Budget {
  return budget(limits, 1, now);
}

export function credentialBudget(limits: RateLimits, now?: () => number): Budget {
  return budget(limits, CREDENTIAL_FACTOR, now);
}

function budget(limits: RateLimits, factor: number, now?: () => number): Budget {
  const requests = limits.requestsPerMinute * factor;
  const tools = limits.toolCallsPerMinute * factor;
  return {
    requests: new TokenBucket({ perMinute: requests, burst: requests }, now),
    toolCalls: new TokenBucket({ perMinute: tools, burst: tools * TOOL_BURST_FACTOR }, now),
  };
}

/** The JSON-RPC error for a request refused by a budget: it says when to retry. */
export function rateLimitedError(waitMs: number): ProtocolError {
  const seconds = (waitMs / 1000).toFixed(1);
  return new ProtocolError(RpcCode.rateLimited, `Rate limit exceeded (--request-rate-limit); retry in ${seconds} s`, {
    data: { retryAfterMs: waitMs },
  });
}
