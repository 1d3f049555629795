// --max-result-size applies to every result, structured ones too: were they to skip it, a cap of
// 1 KB would still let 1 MB through. Text is cut with a note. A structured value is shrunk where it is
// big (the longest arrays lose items from the end, the longest strings lose their tail) until its
// JSON fits, and gets a `_truncated` note saying what was left out: every output schema in tools/list
// declares that key (src/tools/platform/registry.ts), so the cut result still matches its schema.
export const TRUNCATION_KEY = "_truncated";

/** The note's length at most (a quarter of the cap when that is less). */
const MAX_NOTE_CHARS = 400;
/** Strings shorter than this are never cut (names, enums, ids). */
const MIN_CUTTABLE_STRING = 200;
const MAX_ROUNDS = 64;

export function capText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  return `${text.slice(0, maxChars)}\n[truncated: ${text.length - maxChars} of ${text.length} characters omitted by the bridge's result cap; narrow the request (a smaller range or a more specific pattern) to see the rest]`;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

interface Site {
  /** Where it is, for the note ("files", "tools[3].description"). */
  path: string;
  size: number;
  holder: Json[] | { [key: string]: Json };
  key: number | string;
  original: number;
}

/**
 * The value itself when its JSON fits `maxChars`; otherwise a shrunk copy carrying TRUNCATION_KEY,
 * or undefined when nothing could be shrunk enough (the caller then answers with an error).
 */
export function capStructured(value: Record<string, unknown>, maxChars: number): Record<string, unknown> | undefined {
  return capStructuredJson(value, maxChars)?.value;
}

/** capStructured, with the JSON text of what it returns: measuring it wrote that text already. */
export function capStructuredJson(
  value: Record<string, unknown>,
  maxChars: number,
): { value: Record<string, unknown>; json: string } | undefined {
  const json = JSON.stringify(value);
  if (json.length <= maxChars) return { value, json };
  const root = JSON.parse(JSON.stringify(value)) as { [key: string]: Json };
  const cuts = new Map<string, { kept: number; original: number; unit: string }>();
  const noteBudget = Math.min(MAX_NOTE_CHARS, Math.floor(maxChars / 4));
  const note = () => {
    const what = [...cuts].map(([path, c]) => `${path}: ${c.kept} of ${c.original} ${c.unit} kept`).join("; ");
    return `Cut to the bridge's result cap of ${maxChars} characters (${what}); narrow the request to see the rest.`.slice(0, noteBudget);
  };
  for (let round = 0; round < MAX_ROUNDS; round++) {
    // Measured with the note in place: it is part of what must fit.
    const size = JSON.stringify(root).length + noteBudget + TRUNCATION_KEY.length + 6;
    if (size <= maxChars) {
      root[TRUNCATION_KEY] = note();
      return { value: root, json: JSON.stringify(root) };
    }
    const site = largestSite(root);
    if (site === undefined) return undefined;
    const unit = shrink(site, size - maxChars);
    const previous = cuts.get(site.path);
    cuts.set(site.path, { kept: currentLength(site), original: previous?.original ?? site.original, unit });
  }
  return undefined;
}

/** The array or long string whose JSON is largest. */
function largestSite(root: { [key: string]: Json }): Site | undefined {
  let best: Site | undefined;
  const visit = (holder: Json[] | { [key: string]: Json }, key: number | string, value: Json, path: string) => {
    if (typeof value === "string" && value.length >= MIN_CUTTABLE_STRING) {
      const size = JSON.stringify(value).length;
      if (!best || size > best.size) best = { path, size, holder, key, original: value.length };
    } else if (Array.isArray(value)) {
      const size = JSON.stringify(value).length;
      // Dropping items is right for a list of many; when one item holds most of it, cut inside.
      const biggestItem = Math.max(0, ...value.map((item) => JSON.stringify(item).length));
      if (value.length > 1 && biggestItem * 2 <= size && (!best || size > best.size))
        best = { path, size, holder, key, original: value.length };
      for (const [i, item] of value.entries()) visit(value, i, item, `${path}[${i}]`);
    } else if (value !== null && typeof value === "object") {
      for (const [k, item] of Object.entries(value)) visit(value, k, item, path === "" ? k : `${path}.${k}`);
    }
  };
  for (const [k, item] of Object.entries(root)) visit(root, k, item, k);
  return best;
}

function shrink(site: Site, excess: number): string {
  const value = read(site);
  if (typeof value === "string") {
    const keep = Math.max(0, value.length - excess - 16);
    write(site, `${value.slice(0, keep)}…`);
    return "characters";
  }
  const items = value as Json[];
  // Drop in proportion to the excess (at least one item), so big lists converge in a few rounds.
  const drop = Math.max(1, Math.ceil((items.length * excess) / Math.max(1, site.size)));
  items.length = Math.max(0, items.length - drop);
  return "items";
}

function currentLength(site: Site): number {
  const value = read(site);
  return typeof value === "string" ? Math.max(0, value.length - 1) : (value as Json[]).length;
}

function read(site: Site): Json {
  return (site.holder as Record<string | number, Json>)[site.key] as Json;
}

function write(site: Site, value: Json): void {
  (site.holder as Record<string | number, Json>)[site.key] = value;
}
