// One number for "is the bridge well", 0-100, and the signals it is made of, each with the points
// it took off, so the score explains itself. Starts at 100; each signal takes off up to its cap:
// - extension breaker (30): open 30, half-open 15 (closed, or no extension: 0);
// - error rate of the recent calls (30): 60 points per 100 % (half the calls failing takes all 30),
//   counted only from 5 calls on, so one failure of one call does not paint the bridge red;
// - p95 latency of the recent calls (20): nothing under 1 s, then 5 points per second up to 5 s;
// - rate-limit refusals in the last 10 minutes (10): 2 each;
// - language server crashes in the last 10 minutes (10): 5 each.
export interface HealthInputs {
  breaker: "closed" | "open" | "half-open" | undefined;
  recentCalls: number;
  recentErrors: number;
  p95Ms: number | undefined;
  rateLimited: number;
  lspCrashes: number;
}

export interface HealthSignal {
  name: "extension breaker" | "error rate" | "p95 latency" | "rate limits" | "language server crashes";
  /** What was measured, in words: "2 of 40 calls failed (5 %)". */
  value: string;
  /** Points taken off the score (0 = fine). */
  penalty: number;
  max: number;
}

export interface HealthScore {
  score: number;
  status: "healthy" | "degraded" | "unhealthy";
  signals: HealthSignal[];
}

export const MIN_CALLS_FOR_ERROR_RATE = 5;

export function healthScore(inputs: HealthInputs): HealthScore {
  const rate = inputs.recentCalls === 0 ? 0 : inputs.recentErrors / inputs.recentCalls;
  const signals: HealthSignal[] = [
    {
      name: "extension breaker",
      value: inputs.breaker === undefined ? "no extension" : inputs.breaker,
      penalty: inputs.breaker === "open" ? 30 : inputs.breaker === "half-open" ? 15 : 0,
      max: 30,
    },
    {
      name: "error rate",
      value: `${inputs.recentErrors} of ${inputs.recentCalls} calls failed (${Math.round(rate * 100)} %)`,
      penalty: inputs.recentCalls < MIN_CALLS_FOR_ERROR_RATE ? 0 : Math.min(30, Math.round(rate * 60)),
      max: 30,
    },
    {
      name: "p95 latency",
      value: inputs.p95Ms === undefined ? "no calls" : `${inputs.p95Ms} ms`,
      penalty: inputs.p95Ms === undefined ? 0 : Math.min(20, Math.max(0, Math.round(((inputs.p95Ms - 1000) / 1000) * 5))),
      max: 20,
    },
    {
      name: "rate limits",
      value: `${inputs.rateLimited} refused in 10 min`,
      penalty: Math.min(10, inputs.rateLimited * 2),
      max: 10,
    },
    {
      name: "language server crashes",
      value: `${inputs.lspCrashes} in 10 min`,
      penalty: Math.min(10, inputs.lspCrashes * 5),
      max: 10,
    },
  ];
  const score = Math.max(0, 100 - signals.reduce((sum, s) => sum + s.penalty, 0));
  return { score, status: score >= 80 ? "healthy" : score >= 50 ? "degraded" : "unhealthy", signals };
}
