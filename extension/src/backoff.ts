// Reconnect delays: exponential with full jitter (a random delay up to the cap), so windows that
// lost the same bridge do not all knock at once when it comes back.
const BASE_MS = 500;
const MAX_MS = 30_000;

export function reconnectDelay(attempt: number, random: () => number = Math.random): number {
  const cap = Math.min(MAX_MS, BASE_MS * 2 ** attempt);
  return Math.max(100, Math.round(random() * cap));
}
