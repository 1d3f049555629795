// The shim reads lock files with a hand-written parser (src/lock/lock-parse-plain.ts) to keep
// valibot out of its start-up; the bridge and its commands use the valibot schema
// (src/lock/lock-schema.ts). Both must read every lock alike: a table of the cases that matter,
// then generated locks.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { IdeLock } from "../../../src/lock/lock-fields.ts";
import { parseLockPlain } from "../../../src/lock/lock-parse-plain.ts";
import { parseLockText } from "../../../src/lock/lock-schema.ts";

const EMPTY: IdeLock = {
  pid: undefined,
  workspace: undefined,
  workspaceFolders: [],
  ideName: undefined,
  transport: undefined,
  authToken: undefined,
  isBridge: false,
  runningInWindows: false,
  startedAt: undefined,
  nonce: undefined,
};

const json = (value: unknown) => JSON.stringify(value);

const TABLE: Array<[string, string, IdeLock | undefined]> = [
  ["not JSON", "{half", undefined],
  ["empty file", "", undefined],
  ["null", "null", undefined],
  ["an array", "[1, 2]", undefined],
  ["a string", '"lock"', undefined],
  ["a number", "5", undefined],
  ["an empty object", "{}", EMPTY],
  [
    "a bridge's lock",
    json({
      pid: 4242,
      startedAt: 1_700_000_000_000,
      nonce: "n-1",
      workspace: "/w",
      workspaceFolders: ["/w", "/x"],
      ideName: "claude-ide-bridge",
      transport: "ws",
      authToken: "tok",
      isBridge: true,
      runningInWindows: false,
    }),
    {
      pid: 4242,
      startedAt: 1_700_000_000_000,
      nonce: "n-1",
      workspace: "/w",
      workspaceFolders: ["/w", "/x"],
      ideName: "claude-ide-bridge",
      transport: "ws",
      authToken: "tok",
      isBridge: true,
      runningInWindows: false,
    },
  ],
  ["pid 0", json({ pid: 0 }), EMPTY],
  ["a negative pid", json({ pid: -7 }), EMPTY],
  ["a fractional pid", json({ pid: 12.5 }), EMPTY],
  ["a string pid", json({ pid: "4242" }), EMPTY],
  ["a null pid", json({ pid: null }), EMPTY],
  ["pid 1", json({ pid: 1 }), { ...EMPTY, pid: 1 }],
  ["an empty token", json({ authToken: "" }), EMPTY],
  ["a numeric token", json({ authToken: 12 }), EMPTY],
  ["folders with non-strings", json({ workspaceFolders: ["/a", 1, null, "/b", ["/c"]] }), { ...EMPTY, workspaceFolders: ["/a", "/b"] }],
  ["folders that are a string", json({ workspaceFolders: "/a" }), EMPTY],
  ["flags that are strings", json({ isBridge: "true", runningInWindows: "true" }), EMPTY],
  ["flags that are 1", json({ isBridge: 1, runningInWindows: 1 }), EMPTY],
  ["windows", json({ runningInWindows: true }), { ...EMPTY, runningInWindows: true }],
  ["a transport other than ws", json({ transport: "sse" }), { ...EMPTY, transport: "sse" }],
  ["a string startedAt", json({ startedAt: "2024-01-01" }), EMPTY],
  ["an infinite startedAt", '{"startedAt": 1e999}', EMPTY],
  ["unknown fields", json({ port: 1, extra: { a: 1 } }), EMPTY],
  ["a __proto__ key", '{"__proto__": {"pid": 5, "isBridge": true}}', EMPTY],
  ["a repeated key (the last wins)", '{"pid": 1, "pid": 2}', { ...EMPTY, pid: 2 }],
];

describe("lock parsing", () => {
  it.each(TABLE)("%s: both parsers give the expected fields", (_name, text, expected) => {
    expect(parseLockText(text)).toStrictEqual(expected);
    expect(parseLockPlain(text)).toStrictEqual(expected);
  });

  it("both parsers agree on generated locks", () => {
    // Each field absent, an edge of the rules, or any JSON; plus keys no lock has.
    const edge = fc.constantFrom(0, -1, 1, 2.5, 4242, "", "4242", "ws", "sse", "true", true, false, null, [], ["/a", 1, null, "/b"], {});
    const field = fc.oneof(edge, fc.jsonValue());
    const known = fc.record(Object.fromEntries(Object.keys(EMPTY).map((key) => [key, field])), { requiredKeys: [] });
    const lock = fc
      .tuple(known, fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 3 }))
      .map(([fields, extra]) => ({ ...extra, ...fields }));
    const text = fc.oneof(lock.map(json), fc.jsonValue().map(json), fc.string());
    fc.assert(
      fc.property(text, (t) => {
        expect(parseLockPlain(t)).toStrictEqual(parseLockText(t));
      }),
      { numRuns: 2_000 },
    );
  });
});
