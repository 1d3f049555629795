// resultJsonLength (src/mcp/call/tool-result.ts): the size of a call's result as JSON, recorded for
// every call, must equal JSON.stringify's count while skipping the second walk of structuredContent.
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { errorResult, resultJsonLength, successResult } from "../../../src/mcp/call/tool-result.ts";
import { defineTool } from "../../../src/tools/platform/define-tool.ts";

const lister = defineTool({
  name: "lister",
  description: "Lists lines.",
  searchHint: "list lines",
  input: v.strictObject({}),
  output: v.object({ path: v.string(), lines: v.array(v.string()), note: v.optional(v.string()) }),
  annotations: { readOnlyHint: true },
  handler: async () => ({ path: "a", lines: [] }),
});

const plain = defineTool({
  name: "plain",
  description: "Answers text.",
  searchHint: "plain text",
  input: v.strictObject({}),
  annotations: { readOnlyHint: true },
  handler: async () => "",
});

// Quotes, backslashes, control characters, non-ASCII and a lone surrogate: each escapes differently.
const awkward = ['say "hi"', "C:\\tmp\\x", "tab\there\nnewline\u0001", "héllo ✓ 😀", "lone \ud800 half"];

describe("resultJsonLength", () => {
  it("equals JSON.stringify(result).length for structured results, whole and cut, with _meta added later", () => {
    const whole = successResult(lister, { path: "src/ä.ts", lines: awkward }, { maxChars: 100_000 });
    const cut = successResult(
      lister,
      { path: "big", lines: Array.from({ length: 400 }, (_, i) => `${awkward[i % 5]} ${i}`) },
      { maxChars: 2_000 },
    );
    expect(cut.structuredContent).toHaveProperty("_truncated");
    const withMeta = { ...whole, _meta: { "claude-ide-bridge/backend": "lsp" } };
    for (const result of [whole, cut, withMeta]) expect(resultJsonLength(result)).toBe(JSON.stringify(result).length);
  });

  it("falls back to serialising results it did not measure: text, errors, hand-built structured content", () => {
    const text = successResult(plain, awkward.join("\n"), { maxChars: 100_000 });
    const error = errorResult("file_not_found", 'No "x" here', { suggestion: "Look elsewhere." });
    const foreign = { content: [{ type: "text" as const, text: "{}" }], structuredContent: { a: awkward } };
    for (const result of [text, error, foreign]) expect(resultJsonLength(result)).toBe(JSON.stringify(result).length);
  });
});
