// The shim's input side: splitting stdin into lines (oversized and non-UTF-8 lines reported, not
// held), classifying messages, finding the id of an oversized line cheaply, and its flags.
import { describe, expect, it } from "vitest";
import { LineSplitter } from "../../../shim/line-splitter.ts";
import { classifyBridgeFrame, classifyLine, salvageId } from "../../../shim/messages.ts";
import { DEFAULT_GIVE_UP_MS, DEFAULT_IDLE_TIMEOUT_MS, parseShimArgs, ShimUsageError } from "../../../shim/options.ts";

const bytes = (s: string) => new TextEncoder().encode(s);

describe("LineSplitter", () => {
  it("splits across chunks, strips CR, skips blank lines, keeps a last line without newline", () => {
    const s = new LineSplitter(1000);
    expect(s.push(bytes('{"a":'))).toEqual([]);
    expect(s.push(bytes('1}\r\n\n  \n{"b":2}\n{"c"'))).toEqual([
      { kind: "text", text: '{"a":1}' },
      { kind: "text", text: '{"b":2}' },
    ]);
    expect(s.end()).toEqual([{ kind: "text", text: '{"c"' }]);
  });

  it("decodes UTF-8 split between chunks and reports bytes that are not UTF-8", () => {
    const s = new LineSplitter(1000);
    const euro = bytes("€");
    expect(s.push(new Uint8Array([0x22, ...euro.subarray(0, 1)]))).toEqual([]);
    expect(s.push(new Uint8Array([...euro.subarray(1), 0x22, 0x0a, 0xff, 0xfe, 0x0a]))).toEqual([
      { kind: "text", text: '"€"' },
      { kind: "not-utf8", bytes: 2 },
    ]);
  });

  it("reports a line over the limit with its size, head and tail, and carries on with the next", () => {
    const s = new LineSplitter(100);
    const big = `{"id":7,"x":"${"z".repeat(10_000)}","end":true}`;
    const lines = [...s.push(bytes(big.slice(0, 5000))), ...s.push(bytes(`${big.slice(5000)}\n{"ok":1}\n`))];
    expect(lines).toHaveLength(2);
    const [tooLarge, ok] = lines;
    expect(tooLarge).toMatchObject({ kind: "too-large", bytes: big.length });
    if (tooLarge?.kind !== "too-large") throw new Error("expected too-large");
    expect(tooLarge.head.startsWith('{"id":7')).toBe(true);
    expect(tooLarge.tail.endsWith('"end":true}')).toBe(true);
    expect(tooLarge.head.length).toBeLessThanOrEqual(4096);
    expect(ok).toEqual({ kind: "text", text: '{"ok":1}' });
  });

  it("accepts a line of exactly the limit", () => {
    const s = new LineSplitter(10);
    expect(s.push(bytes("0123456789\n"))).toEqual([{ kind: "text", text: "0123456789" }]);
  });
});

describe("messages", () => {
  it("classifies requests, notifications and the rest", () => {
    expect(classifyLine('{"jsonrpc":"2.0","id":"a","method":"ping"}')).toMatchObject({ kind: "request", id: "a", method: "ping" });
    expect(classifyLine('{"jsonrpc":"2.0","method":"notifications/initialized"}')).toMatchObject({ kind: "notification" });
    expect(classifyLine('{"jsonrpc":"2.0","id":1,"result":{}}')).toMatchObject({ kind: "other" });
    expect(classifyLine("[1,2]")).toMatchObject({ kind: "other" });
    expect(() => classifyLine("{nope")).toThrow(SyntaxError);
  });

  it("salvages a top-level id from the head or the tail only", () => {
    expect(salvageId('{"jsonrpc":"2.0","id":12,"method":"x","params":{"a":"', "")).toBe(12);
    expect(salvageId('{"id":"req-1","params"', "")).toBe("req-1");
    expect(salvageId('{"method":"tools/call","params":{"x":"', 'aaaa"}},"jsonrpc":"2.0","id":77}')).toBe(77);
    expect(salvageId('{"method":"x","params":{"x":"', 'aaa","id":5}}')).toBeNull(); // nested: not ours
    expect(salvageId('{"method":"x"', "no id here")).toBeNull();
  });

  it("reads a bridge response's id from its head, and parses anything else", () => {
    expect(classifyBridgeFrame('{"jsonrpc":"2.0","id":3,"result":{"big":"..."}}')).toEqual({
      kind: "response",
      id: 3,
      text: expect.any(String),
    });
    expect(classifyBridgeFrame('{"jsonrpc":"2.0","id":"x-1","error":{}}')).toMatchObject({ kind: "response", id: "x-1" });
    expect(classifyBridgeFrame('{"result":{},"id":4,"jsonrpc":"2.0"}')).toMatchObject({ kind: "response", id: 4 });
    expect(classifyBridgeFrame('{"jsonrpc":"2.0","method":"notifications/message"}')).toMatchObject({ kind: "other" });
  });
});

describe("parseShimArgs", () => {
  it("reads flags, the original's positional form and the give-up env", () => {
    expect(parseShimArgs([], {})).toMatchObject({
      port: undefined,
      spawn: true,
      connectTimeoutMs: undefined,
      idleTimeoutMs: DEFAULT_IDLE_TIMEOUT_MS,
      giveUpMs: DEFAULT_GIVE_UP_MS,
    });
    expect(parseShimArgs(["--no-spawn", "--connect-timeout", "1500", "--idle-timeout", "0"], {})).toMatchObject({
      spawn: false,
      connectTimeoutMs: 1500,
      idleTimeoutMs: 0,
    });
    expect(parseShimArgs(["--port=4000", "--token", "t", "--verbose"], {})).toMatchObject({ port: 4000, token: "t", verbose: true });
    expect(parseShimArgs(["4000", "tok"], {})).toMatchObject({ port: 4000, token: "tok" });
    expect(parseShimArgs(["--spawn", "--", "--slim", "--port", "9"], {})).toMatchObject({
      spawn: true,
      port: undefined,
      bridgeArgs: ["--slim", "--port", "9"],
    });
    expect(parseShimArgs([], { CLAUDE_IDE_BRIDGE_SHIM_GIVE_UP_MS: "60000" })).toMatchObject({ giveUpMs: 60_000 });
    expect(parseShimArgs([], { SHIM_MAX_UNREACHABLE_MS: "2000" })).toMatchObject({ giveUpMs: 2_000 });
    expect(parseShimArgs(["--give-up-after", "1500"], { SHIM_MAX_UNREACHABLE_MS: "2000" })).toMatchObject({ giveUpMs: 1_500 });
    expect(parseShimArgs(["--help"], {})).toBe("help");
  });

  it("refuses what it cannot use, saying why", () => {
    expect(() => parseShimArgs(["--bogus"], {})).toThrow(new ShimUsageError("unknown option --bogus"));
    expect(() => parseShimArgs(["--port", "70000"], {})).toThrow(/port number/);
    expect(() => parseShimArgs(["--token", "x"], {})).toThrow(/--token needs --port/);
    expect(() => parseShimArgs(["--give-up-after", "10"], {})).toThrow(/at least 1000/);
    expect(() => parseShimArgs(["--give-up-after", "0"], {})).toThrow(/at least 1000\)/);
    expect(() => parseShimArgs(["--idle-timeout", "10"], {})).toThrow(/at least 1000, or 0/);
    expect(() => parseShimArgs(["--port"], {})).toThrow(/needs a value/);
    expect(() => parseShimArgs(["1", "2", "3"], {})).toThrow(/unexpected argument "3"/);
  });
});
