// The protocol's packed semantic tokens decoded by a legend: relative lines and columns, modifier
// bits, and indexes the legend lacks named by number rather than dropped.
import { describe, expect, it } from "vitest";
import { decodeTokens } from "../../../src/tools/lsp/semantic-token-decoding.ts";

const legend = { tokenTypes: ["function", "parameter"], tokenModifiers: ["declaration", "readonly", "async"] };

describe("semantic token decoding", () => {
  it("turns five integers per token into positions and names", () => {
    const data = [3, 16, 9, 0, 0b101, 0, 10, 6, 1, 0b1, 1, 2, 1, 7, 0b1000];
    expect(decodeTokens(data, legend)).toEqual([
      { line: 3, character: 16, length: 9, type: "function", modifiers: ["declaration", "async"] },
      { line: 3, character: 26, length: 6, type: "parameter", modifiers: ["declaration"] },
      { line: 4, character: 2, length: 1, type: "type7", modifiers: ["modifier3"] },
    ]);
  });

  it("ignores a trailing partial token", () => {
    expect(decodeTokens([0, 0, 1, 0], legend)).toEqual([]);
  });
});
