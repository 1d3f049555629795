// "Did you mean …?" for a mistyped argument or tool name: the same name in another spelling
// (file_path, filePath, FILEPATH), one name containing the other (file_path / path), or a small
// edit distance (stratLine / startLine).
export function closestName(wrong: string, names: readonly string[]): string | undefined {
  const key = normalized(wrong);
  if (key === "") return undefined;
  const exact = names.find((n) => normalized(n) === key);
  if (exact !== undefined) return exact;
  const containing = names.filter((n) => {
    const other = normalized(n);
    return other.length >= 3 && (key.includes(other) || other.includes(key));
  });
  if (containing.length > 0) return containing.sort((a, b) => Math.abs(a.length - wrong.length) - Math.abs(b.length - wrong.length))[0];
  let best: { name: string; distance: number } | undefined;
  for (const name of names) {
    const distance = editDistance(key, normalized(name));
    if (distance <= Math.max(1, Math.floor(key.length / 4)) && (!best || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

/** Case, "_" and "-" do not matter: models write snake_case, kebab-case and camelCase alike. */
function normalized(name: string): string {
  return name.toLowerCase().replace(/[_\-\s]/g, "");
}

/** Levenshtein distance, for names (short strings only: callers pass identifiers). */
function editDistance(a: string, b: string): number {
  if (a.length > 64 || b.length > 64) return Number.POSITIVE_INFINITY;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
    }
    previous = current;
  }
  return previous[b.length] ?? Number.POSITIVE_INFINITY;
}
