// Token handling: generation from the CSPRNG and comparison in constant time, so response
// timing reveals nothing about how much of a guessed token was right.
const encoder = new TextEncoder();

export function tokensEqual(given: string | undefined | null, expected: string): boolean {
  if (typeof given !== "string") return false;
  const a = encoder.encode(given);
  const b = encoder.encode(expected);
  // Walk the expected token's full length whatever the given length is.
  let diff = a.length ^ b.length;
  for (let i = 0; i < b.length; i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0;
}

/** 32 lowercase hex chars from the CSPRNG (the format Claude Code's IDE lock files use). */
export function randomToken(bytes = 16): string {
  const raw = crypto.getRandomValues(new Uint8Array(bytes));
  return Array.from(raw, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The token of an `Authorization: Bearer <token>` header, if it has that form. */
export function bearerToken(header: string | undefined | null): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}
