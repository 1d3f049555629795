// What a plugin's worker posts is read only when it has the shape of a message, and a capability
// request runs only the methods offered to plugins, with the call's signal, answered as plain data.
import { describe, expect, it } from "vitest";
import type { ToolContext } from "../../../src/capabilities/context.ts";
import { plainData, serveCapability } from "../../../src/plugins/plugin-capabilities.ts";
import { parseFromWorker } from "../../../src/plugins/worker-protocol.ts";

describe("parseFromWorker", () => {
  it.each([
    [{ t: "ready" }, { t: "ready" }],
    [
      { t: "result", id: 3, ok: true, value: { a: 1 } },
      { t: "result", id: 3, ok: true, value: { a: 1 } },
    ],
    [
      { t: "result", id: 3, ok: false, error: { message: "no", token: 2 } },
      { t: "result", id: 3, ok: false, error: { message: "no", token: 2 } },
    ],
    [
      { t: "request", id: 1, call: 4, capability: "fs", method: "readText", args: ["a"] },
      { t: "request", id: 1, call: 4, capability: "fs", method: "readText", args: ["a"] },
    ],
    [
      { t: "progress", call: 2, progress: 1, total: 4 },
      { t: "progress", call: 2, progress: 1, total: 4 },
    ],
  ])("reads %j", (message, parsed) => {
    expect(parseFromWorker(message)).toEqual(parsed);
  });

  it.each([
    ["not an object", "ready"],
    ["an unknown kind", { t: "shell", command: "rm" }],
    ["a result without an id", { t: "result", ok: true, value: 1 }],
    ["an error without a message", { t: "result", id: 1, ok: false, error: { suggestion: "x" } }],
    ["a request with a bad call id", { t: "request", id: 1, call: -1, capability: "fs", method: "stat", args: [] }],
    ["a request whose args are not a list", { t: "request", id: 1, capability: "fs", method: "stat", args: "a" }],
    ["a log at an unknown level", { t: "log", level: "shout", message: "x" }],
    ["a loadFailed at an unknown stage", { t: "loadFailed", stage: "later", message: "x" }],
  ])("drops %s", (_case, message) => {
    expect(parseFromWorker(message)).toBeUndefined();
  });
});

describe("serveCapability", () => {
  const signal = new AbortController().signal;
  const seen: unknown[][] = [];
  const ctx = {
    signal,
    fs: {
      readText: async (...args: unknown[]) => {
        seen.push(args);
        return "text";
      },
      walk: async function* () {
        yield { path: "a", kind: "file" };
        yield { path: "b", kind: "directory" };
      },
      openFile: async () => ({ read: () => undefined }),
    },
    lsp: {
      diagnosticsFor: async (...args: unknown[]) => {
        seen.push(args);
        return { items: [], current: true };
      },
    },
    http: {},
    exec: { run: async () => ({ exitCode: 0 }) },
  } as unknown as Pick<ToolContext, "fs" | "lsp" | "http" | "exec" | "signal">;

  it("runs an offered method with the given arguments, and answers a walk whole", async () => {
    expect(await serveCapability(ctx, { capability: "fs", method: "readText", args: ["a.txt", { maxBytes: 9 }] }, { exec: false })).toBe(
      "text",
    );
    expect(seen.at(-1)).toEqual(["a.txt", { maxBytes: 9 }]);
    expect(await serveCapability(ctx, { capability: "fs", method: "walk", args: ["."] }, { exec: false })).toEqual([
      { path: "a", kind: "file" },
      { path: "b", kind: "directory" },
    ]);
  });

  it("gives a language-server request the call's signal", async () => {
    await serveCapability(ctx, { capability: "lsp", method: "diagnosticsFor", args: ["a.ts", { start: false }] }, { exec: true });
    expect(seen.at(-1)).toEqual(["a.ts", { start: false, signal }]);
  });

  it.each([
    ["a method not offered", { capability: "fs", method: "openFile", args: ["a"] }, /ctx.fs.openFile is not available to plugins/],
    ["an inherited name", { capability: "fs", method: "constructor", args: [] }, /not available/],
    ["an unknown capability", { capability: "runtime", method: "spawn", args: [] }, /not available/],
    ["exec outside a call", { capability: "exec", method: "run", args: ["git", { args: [] }] }, /given to a tool's handler only/],
  ])("refuses %s", async (_case, request, error) => {
    await expect(serveCapability(ctx, request, { exec: false })).rejects.toThrow(error);
  });
});

describe("plainData", () => {
  it("keeps data and bytes, and leaves out functions and cycles", () => {
    const cyclic: Record<string, unknown> = { name: "c" };
    cyclic.self = cyclic;
    const shared = { n: 1 };
    const bytes = new Uint8Array([1, 2]);
    expect(plainData({ a: [1, "x", null], bytes, run: () => 1, cyclic, twice: [shared, shared] })).toEqual({
      a: [1, "x", null],
      bytes,
      cyclic: { name: "c" },
      twice: [{ n: 1 }, { n: 1 }],
    });
  });
});
