import { describe, expect, it } from "vitest";
import { progressNotifier } from "../../../src/mcp/call/notifiers.ts";
import type { Params } from "../../../src/mcp/protocol/jsonrpc.ts";

function notifier() {
  const sent: Params[] = [];
  const progress = progressNotifier({ progressToken: "t" }, (method, params) => {
    if (method === "notifications/progress") sent.push(params);
  });
  return { progress, sent };
}

describe("progressNotifier", () => {
  it("sends increasing counts as given, with their totals", () => {
    const { progress, sent } = notifier();
    progress(0, { total: 2, message: "project 1 of 2" });
    progress(1, { total: 2, message: "project 2 of 2" });
    expect(sent).toEqual([
      { progressToken: "t", progress: 0, total: 2, message: "project 1 of 2" },
      { progressToken: "t", progress: 1, total: 2, message: "project 2 of 2" },
    ]);
  });

  it("sends a message whose count does not increase just above the last value, without its total, so a later phase is not silent", () => {
    const { progress, sent } = notifier();
    progress(13, { total: 13, message: "tsgo checked 13 of 13 project(s)" });
    progress(0, { message: "starting vscode-json-language-server" });
    progress(0, { total: 40, message: "language servers: 0 of 40 file(s)" });
    progress(14, { message: "later" });
    const values = sent.map((p) => p.progress as number);
    expect(values.every((value, i) => i === 0 || value > (values[i - 1] ?? Number.POSITIVE_INFINITY))).toBe(true);
    expect(sent.map((p) => p.message)).toEqual([
      "tsgo checked 13 of 13 project(s)",
      "starting vscode-json-language-server",
      "language servers: 0 of 40 file(s)",
      "later",
    ]);
    expect(sent[1]).not.toHaveProperty("total");
    expect(sent[2]).not.toHaveProperty("total");
  });

  it("drops a count without a message that does not increase, and sends nothing without a token", () => {
    const { progress, sent } = notifier();
    progress(5);
    progress(5);
    progress(3);
    expect(sent).toHaveLength(1);
    const none: Params[] = [];
    progressNotifier({}, (_method, params) => none.push(params))(1, { message: "x" });
    expect(none).toEqual([]);
  });
});
