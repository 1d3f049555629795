// Byte helpers shared by the core and the shim (no imports: the shim loads this on every start).

/** The parts as one array; the only part itself when there is one (no copy). */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1 && parts[0] !== undefined) return parts[0];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
