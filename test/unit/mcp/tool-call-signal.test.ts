// The signal a tool call runs under (src/mcp/call/tool-call.ts): the caller's abort with its reason,
// the --timeout as a TimeoutError (plugins tell a timeout from a cancel by it), and nothing left
// behind once the call has answered (no timer waiting out the timeout, no listener on the caller).
import * as v from "valibot";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ToolContext } from "../../../src/capabilities/context.ts";
import { runToolCall } from "../../../src/mcp/call/tool-call.ts";
import { defineTool } from "../../../src/tools/platform/define-tool.ts";
import { createLogger } from "../../../src/log.ts";

/** A tool that waits for its signal and says why it was aborted. */
const waiter = defineTool({
  name: "waiter",
  description: "Waits for its signal, then says the abort reason's name.",
  searchHint: "wait abort reason",
  input: v.strictObject({}),
  annotations: { readOnlyHint: true },
  handler: (_input, ctx) =>
    new Promise<string>((resolve) => {
      ctx.signal.addEventListener("abort", () => resolve(String((ctx.signal.reason as Error).name)), { once: true });
    }),
});

const quick = defineTool({
  name: "quick",
  description: "Answers at once.",
  searchHint: "quick answer",
  input: v.strictObject({}),
  annotations: { readOnlyHint: true },
  handler: async () => "done",
});

function call(tool: typeof waiter, caller: AbortSignal, timeoutMs: number, seen: { signal?: AbortSignal }) {
  return runToolCall({
    tool,
    input: {},
    signal: caller,
    timeoutMs,
    maxResultChars: 10_000,
    logger: createLogger({ verbose: false, jsonl: false }),
    makeContext: ({ signal }) => {
      seen.signal = signal;
      return { signal } as unknown as ToolContext;
    },
  });
}

afterEach(() => {
  vi.useRealTimers();
});

describe("a tool call's signal", () => {
  it("aborts with a TimeoutError at the timeout and answers timeout", async () => {
    const seen: { signal?: AbortSignal } = {};
    const result = await call(waiter, new AbortController().signal, 50, seen);
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toMatch(/did not finish within 50 ms/);
    expect((seen.signal?.reason as Error | undefined)?.name).toBe("TimeoutError");
  });

  it("says a tool that writes may have changed files before its timeout, and a read-only one not", async () => {
    const writer = defineTool({
      name: "writer",
      description: "Would write; waits for its signal.",
      searchHint: "write wait abort",
      input: v.strictObject({}),
      annotations: { readOnlyHint: false, destructiveHint: false },
      handler: (_input, ctx) =>
        new Promise<string>((resolve) => ctx.signal.addEventListener("abort", () => resolve("stopped"), { once: true })),
    });
    const written = JSON.stringify((await call(writer, new AbortController().signal, 50, {})).content);
    expect(written).toMatch(/did not finish within 50 ms\. It may have changed files before it stopped/);
    const read = JSON.stringify((await call(waiter, new AbortController().signal, 50, {})).content);
    expect(read).not.toMatch(/changed files/);
  });

  it("aborts with the caller's reason when the caller cancels, and answers cancelled", async () => {
    const caller = new AbortController();
    const seen: { signal?: AbortSignal } = {};
    const pending = call(waiter, caller.signal, 60_000, seen);
    caller.abort("user");
    const result = await pending;
    expect(JSON.stringify(result.content)).toMatch(/was cancelled/);
    expect(seen.signal?.reason).toBe("user");
  });

  it("is cancelled at once when the caller had already aborted", async () => {
    const caller = new AbortController();
    caller.abort("gone");
    const result = await call(waiter, caller.signal, 60_000, {});
    expect(JSON.stringify(result.content)).toMatch(/was cancelled/);
  });

  it("leaves no timer and no abort of its own once the call answered", async () => {
    vi.useFakeTimers();
    const caller = new AbortController();
    const seen: { signal?: AbortSignal } = {};
    const result = await call(quick, caller.signal, 60_000, seen);
    expect(result.content).toEqual([{ type: "text", text: "done" }]);
    expect(vi.getTimerCount()).toBe(0);
    // The caller aborting later reaches nothing of the finished call.
    caller.abort("late");
    expect(seen.signal?.aborted).toBe(false);
  });
});
