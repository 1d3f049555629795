// MCP roots as a session asks for them: only from a client that declared the capability, on the
// standalone channel (or as soon as one is attached), and only the answer to the latest request
// counts; a malformed answer or an error changes nothing, and a long list is cut.
import { describe, expect, it } from "vitest";
import type { JsonRpcMessage } from "../../../src/mcp/protocol/jsonrpc.ts";
import { type ClientRoot, clientRootsOf, MAX_CLIENT_ROOTS } from "../../../src/mcp/sessions/client-roots.ts";

function fixture(capabilities: unknown = { roots: { listChanged: true } }) {
  const sent: JsonRpcMessage[] = [];
  const offered: (readonly ClientRoot[])[] = [];
  let open = true;
  const roots = clientRootsOf(capabilities, {
    sink: () => (open ? { send: (m) => sent.push(m) } : undefined),
    onRoots: (r) => offered.push(r),
  });
  return { roots, sent, offered, close: () => (open = false), open: () => (open = true) };
}

const ids = (sent: JsonRpcMessage[]) => sent.map((m) => ("id" in m ? m.id : undefined));

describe("client roots", () => {
  it("asks only a client that declared roots", () => {
    expect(fixture({}).roots).toBeUndefined();
    expect(fixture(null).roots).toBeUndefined();
    expect(fixture({ sampling: {} }).roots).toBeUndefined();
    expect(fixture({ roots: {} }).roots).toBeDefined();
  });

  it("asks on the open channel, takes the latest answer, and ignores stale, failed and malformed ones", () => {
    const f = fixture();
    f.roots?.ask();
    f.roots?.ask();
    expect(f.sent).toEqual([
      { jsonrpc: "2.0", id: "bridge-roots-1", method: "roots/list" },
      { jsonrpc: "2.0", id: "bridge-roots-2", method: "roots/list" },
    ]);
    const roots = [{ uri: "file:///work/a", name: "a" }];
    f.roots?.answer({ jsonrpc: "2.0", id: "bridge-roots-1", result: { roots: [{ uri: "file:///old" }] } });
    f.roots?.answer({ jsonrpc: "2.0", id: "bridge-roots-2", result: { roots: "not a list" } });
    expect(f.offered).toEqual([]);
    f.roots?.ask();
    f.roots?.answer({ jsonrpc: "2.0", id: "bridge-roots-3", error: { code: -32601, message: "no roots" } });
    f.roots?.ask();
    f.roots?.answer({ jsonrpc: "2.0", id: 7, result: { roots } });
    f.roots?.answer({ jsonrpc: "2.0", id: "bridge-roots-4", result: { roots } });
    // Answered once: the same id again is not taken twice.
    f.roots?.answer({ jsonrpc: "2.0", id: "bridge-roots-4", result: { roots: [] } });
    expect(f.offered).toEqual([roots]);
  });

  it("owes a request while no channel is open and sends it once one is attached; cuts a long list", () => {
    const f = fixture();
    f.close();
    f.roots?.ask();
    f.roots?.attached();
    expect(f.sent).toEqual([]);
    f.open();
    f.roots?.attached();
    f.roots?.attached();
    expect(ids(f.sent)).toEqual(["bridge-roots-2"]);
    const many = Array.from({ length: MAX_CLIENT_ROOTS + 5 }, (_, i) => ({ uri: `file:///r/${i}` }));
    f.roots?.answer({ jsonrpc: "2.0", id: "bridge-roots-2", result: { roots: many } });
    expect(f.offered[0]).toHaveLength(MAX_CLIENT_ROOTS);
  });
});
