// LSP TextEdits on text as a server sees it: UTF-16 columns, CRLF and lone CR line ends, a column
// past the line's end, several edits of one document (from the end), and overlapping edits refused.
import { describe, expect, it } from "vitest";
import { applyTextEdits } from "../../../src/lsp/text-edits.ts";

const at = (line: number, character: number) => ({ line, character });
const edit = (from: [number, number], to: [number, number], newText: string) => ({
  range: { start: at(...from), end: at(...to) },
  newText,
});

describe("applyTextEdits", () => {
  it("applies several edits of one document against the text before any of them", () => {
    expect(
      applyTextEdits("let a = 1;\nlet b = a;\n", [edit([0, 4], [0, 5], "total"), edit([1, 8], [1, 9], "total")], { file: "f.ts" }),
    ).toBe("let total = 1;\nlet total = total;\n".replace("let total = total", "let b = total"));
  });

  it("counts columns in UTF-16 and keeps CRLF and CR line ends", () => {
    expect(
      applyTextEdits('const s = "😀"; x\r\ny\rz', [edit([0, 16], [0, 17], "w"), edit([1, 0], [1, 1], "Y"), edit([2, 0], [2, 1], "Z")], {
        file: "f.ts",
      }),
    ).toBe('const s = "😀"; w\r\nY\rZ');
  });

  it("takes a column past the end as the line's end, and keeps the order of inserts at one place", () => {
    expect(
      applyTextEdits("ab\ncd", [edit([0, 99], [0, 99], "1"), edit([0, 99], [0, 99], "2"), edit([5, 0], [5, 0], "!")], { file: "f.ts" }),
    ).toBe("ab12\ncd!");
  });

  it("refuses overlapping edits", () => {
    expect(() => applyTextEdits("abcdef", [edit([0, 0], [0, 3], "x"), edit([0, 2], [0, 4], "y")], { file: "f.ts" })).toThrow(/overlapping/);
  });
});
