// A JSON-RPC id cut out of a message that is not parsed whole (too large, or refused before
// parsing): the token as written, `7` or `"a"`, to a usable id. No imports: the shim uses it too.

/** The id the token stands for, or null when it is not a usable id (a float, an unsafe integer). */
export function idFromToken(raw: string | undefined): string | number | null {
  if (raw === undefined) return null;
  try {
    const id: unknown = JSON.parse(raw);
    return typeof id === "string" || (typeof id === "number" && Number.isSafeInteger(id)) ? id : null;
  } catch {
    return null;
  }
}
