// classify() takes the messages clients send by a hand-written check and leaves the rest to the
// schemas: both ways must accept the same messages, with the same output, and refuse the same.
import { describe, expect, it } from "vitest";
import { ProtocolError, RpcCode } from "../../../src/errors.ts";
import { decodeMessage } from "../../../src/mcp/protocol/decode.ts";
import { classify } from "../../../src/mcp/protocol/jsonrpc.ts";

const ids: [string, unknown, boolean][] = [
  ["integer id", 7, true],
  ["zero id", 0, true],
  ["negative id", -3, true],
  ["string id", "a-1", true],
  ["empty string id", "", true],
  ["fractional id", 1.5, false],
  ["null id", null, false],
  ["boolean id", true, false],
  ["object id", { n: 1 }, false],
];
const params: [string, unknown, boolean][] = [
  ["object params", { a: 1 }, true],
  ["empty params", {}, true],
  ["array params", [1], false],
  ["null params", null, false],
  ["string params", "x", false],
  ["number params", 3, false],
];

describe("classify", () => {
  it("takes a request as the schema does: the known fields only, params only when given", () => {
    expect(classify({ jsonrpc: "2.0", id: 1, method: "ping", extra: true })).toEqual({
      kind: "request",
      message: { jsonrpc: "2.0", id: 1, method: "ping" },
    });
    const withParams = classify({ params: { a: 1 }, method: "tools/call", id: "x", jsonrpc: "2.0" });
    expect(withParams).toEqual({ kind: "request", message: { jsonrpc: "2.0", id: "x", method: "tools/call", params: { a: 1 } } });
    expect(Object.keys(withParams.message)).toEqual(["jsonrpc", "id", "method", "params"]);
    expect("params" in classify({ jsonrpc: "2.0", id: 1, method: "ping" }).message).toBe(false);
  });

  it("takes a notification, with or without params", () => {
    expect(classify({ jsonrpc: "2.0", method: "notifications/initialized" })).toEqual({
      kind: "notification",
      message: { jsonrpc: "2.0", method: "notifications/initialized" },
    });
    expect(classify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 3 } })).toEqual({
      kind: "notification",
      message: { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 3 } },
    });
  });

  for (const [idName, id, idOk] of ids)
    for (const [paramsName, given, paramsOk] of params) {
      it(`a request with ${idName} and ${paramsName} is ${idOk && paramsOk ? "accepted" : "refused as -32600"}`, () => {
        const message = { jsonrpc: "2.0", id, method: "tools/list", params: given };
        if (idOk && paramsOk) {
          expect(classify(message)).toEqual({ kind: "request", message });
          return;
        }
        const refused = (() => {
          try {
            classify(message);
          } catch (err) {
            return err;
          }
          return undefined;
        })();
        expect(refused).toBeInstanceOf(ProtocolError);
        expect((refused as ProtocolError).code).toBe(RpcCode.invalidRequest);
        expect((refused as ProtocolError).message).toMatch(/^Invalid Request: /);
      });
    }

  it("refuses a wrong version or a method that is not a string, naming the field", () => {
    expect(() => classify({ jsonrpc: "1.0", id: 1, method: "ping" })).toThrow(/Invalid Request: jsonrpc/);
    expect(() => classify({ id: 1, method: "ping" })).toThrow(/Invalid Request: jsonrpc/);
    expect(() => classify({ jsonrpc: "2.0", id: 1, method: 5 })).toThrow(/Invalid Request: method/);
    expect(() => classify({ jsonrpc: "2.0", method: "x", params: [1] })).toThrow(/Invalid Request: params/);
  });

  it("answers a malformed request with its id when the id was usable", () => {
    const decoded = decodeMessage(JSON.stringify({ jsonrpc: "2.0", id: 9, method: "ping", params: [] }));
    expect(decoded.ok).toBe(false);
    if (!decoded.ok) expect(decoded.response).toMatchObject({ id: 9, error: { code: RpcCode.invalidRequest } });
  });
});
