// parseJsonCooperatively must agree with JSON.parse on every text: the same value for valid JSON,
// an error for invalid JSON. Small pieces (chunkChars of a few characters) make every path of the
// member-by-member walk run on small generated documents; a seeded generator keeps failures
// reproducible. One test on a real-sized report checks that the event loop gets turns.
import { describe, expect, it } from "vitest";
import { JsonTextError, parseJsonCooperatively } from "../../../src/lib/text/cooperative-json.ts";
import { measureTurns } from "../../helpers/event-loop-turns.ts";

function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const STRINGS = ["", "a", "__proto__", 'q"uote', "back\\slash\\", "uni\u00e9\u2028", "{[,]}:", "0", "10", "constructor"];

function value(rand: () => number, depth: number): unknown {
  const r = rand();
  if (depth > 5 || r < 0.35) {
    const p = rand();
    if (p < 0.25) return Math.floor(rand() * 2000) - 1000;
    if (p < 0.35) return rand() * 10;
    if (p < 0.7) return STRINGS[Math.floor(rand() * STRINGS.length)];
    return p < 0.8 ? null : p < 0.9;
  }
  const n = Math.floor(rand() * 6);
  if (r < 0.65) return Array.from({ length: n }, () => value(rand, depth + 1));
  const out: Record<string, unknown> = {};
  for (let i = 0; i < n; i++)
    Object.defineProperty(out, STRINGS[Math.floor(rand() * STRINGS.length)] ?? "k", {
      value: value(rand, depth + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return out;
}

/** JSON with random whitespace between tokens, as pretty printers and runners write it. */
function spaced(text: string, rand: () => number): string {
  let out = "";
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] ?? "";
    out += c;
    if (inString) {
      if (c === "\\") out += text[++i] ?? "";
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if ("{}[],:".includes(c) && rand() < 0.3) out += [" ", "\n", "\t", "\r\n"][Math.floor(rand() * 4)];
  }
  return out;
}

async function outcome(text: string, chunkChars: number): Promise<{ value?: unknown; error?: boolean }> {
  try {
    return { value: await parseJsonCooperatively(text, { chunkChars }) };
  } catch (err) {
    if (!(err instanceof JsonTextError)) throw err;
    return { error: true };
  }
}

function expected(text: string): { value?: unknown; error?: boolean } {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return { error: true };
  }
}

describe("parseJsonCooperatively", () => {
  it("gives what JSON.parse gives for 3,000 generated documents, in pieces of 1 to 40 characters", async () => {
    const rand = prng(20261201);
    for (let n = 0; n < 3000; n++) {
      const text = spaced(JSON.stringify(value(rand, 0)), rand);
      const chunkChars = 1 + Math.floor(rand() * 40);
      const got = await outcome(text, chunkChars);
      expect({ n, chunkChars, ...got }).toEqual({ n, chunkChars, ...expected(text) });
      // Key order too (integer-like keys first, as JSON.parse orders them).
      expect(JSON.stringify(got.value)).toBe(JSON.stringify(JSON.parse(text)));
    }
  });

  it("refuses what JSON.parse refuses: 3,000 documents with one character changed, dropped or added", async () => {
    const rand = prng(7);
    const noise = [",", ":", "{", "}", "[", "]", '"', "\\", "x", " ", "1", "-"];
    let refused = 0;
    for (let n = 0; n < 3000; n++) {
      const good = JSON.stringify(value(rand, 0));
      const at = Math.floor(rand() * good.length);
      const kind = rand();
      const extra = noise[Math.floor(rand() * noise.length)] ?? "";
      const text =
        kind < 0.33
          ? good.slice(0, at) + good.slice(at + 1)
          : kind < 0.66
            ? good.slice(0, at) + extra + good.slice(at)
            : good.slice(0, at) + extra + good.slice(at + 1);
      const want = expected(text);
      if (want.error === true) refused++;
      expect({ n, text, ...(await outcome(text, 1 + Math.floor(rand() * 20))) }).toEqual({ n, text, ...want });
    }
    // The mutations must mostly produce invalid JSON, or this test would prove little.
    expect(refused).toBeGreaterThan(1500);
  });

  it('keeps "__proto__" as an own key, never as the prototype', async () => {
    const text = `{"__proto__": {"polluted": true}, "a": [${"1,".repeat(40)}1]}`;
    const parsed = (await parseJsonCooperatively(text, { chunkChars: 8 })) as Record<string, unknown>;
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(Object.keys(parsed)).toEqual(["__proto__", "a"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("refuses nesting deeper than 512 levels without a stack overflow", async () => {
    const deep = `${"[".repeat(600)}${"]".repeat(600)}`;
    await expect(parseJsonCooperatively(deep, { chunkChars: 16 })).rejects.toThrow(/deeper than 512/);
    const fine = `${"[".repeat(500)}1${"]".repeat(500)}`;
    expect(JSON.stringify(await parseJsonCooperatively(fine, { chunkChars: 16 }))).toBe(fine);
  });

  it("lets timers run while it parses a 24 MB report: its longest turn is a small part of the whole parse", {
    timeout: 120_000,
  }, async () => {
    const files: Record<string, unknown> = {};
    for (let f = 0; f < 400; f++) {
      const statementMap: Record<string, unknown> = {};
      const s: Record<string, number> = {};
      for (let i = 0; i < 500; i++) {
        statementMap[i] = { start: { line: i + 1, column: 2 }, end: { line: i + 1, column: 40 } };
        s[i] = i % 3;
      }
      files[`/ws/src/file${f}.ts`] = { path: `/ws/src/file${f}.ts`, statementMap, s };
    }
    // One file as big as all the others together: its statementMap alone must be parsed in turns too.
    const huge: Record<string, unknown> = {};
    for (let i = 0; i < 200_000; i++) huge[i] = { start: { line: i + 1, column: 0 }, end: { line: i + 1, column: 9 } };
    files["/ws/src/bundle.js"] = { path: "/ws/src/bundle.js", statementMap: huge, s: {} };
    const text = JSON.stringify(files, null, 1);
    expect(text.length).toBeGreaterThan(24_000_000);

    const { value: parsed, ms: total, longest, ticks: turns } = await measureTurns(() => parseJsonCooperatively(text));

    expect(JSON.stringify(parsed)).toBe(JSON.stringify(JSON.parse(text)));
    // JSON.parse in one go would be one turn as long as the whole parse. Half, not less: on a loaded
    // machine one collection of a large heap or one lost time slice is a long turn of its own.
    expect(turns).toBeGreaterThan(10);
    expect(longest, `longest turn ${longest.toFixed(0)} ms of ${total.toFixed(0)} ms`).toBeLessThan(total / 2);
  });
});
