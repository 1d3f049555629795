// A VS Code selection as the bridge's own tools show positions: the file relative to the root,
// 1-based lines and columns (the IDE link keeps VS Code's 0-based shape; see ide/).
import * as v from "valibot";
import type { Selection } from "../../extension/protocol.ts";
import { shownPath } from "./editor-files.ts";

const Point = v.object({ line: v.number(), column: v.number() });

export const SelectionResult = v.object({
  file: v.pipe(v.string(), v.description("Relative to the workspace root when inside it.")),
  text: v.string(),
  start: v.pipe(Point, v.description("1-based line and column.")),
  end: Point,
  isEmpty: v.pipe(v.boolean(), v.description("True when it is only the cursor.")),
});
export type SelectionResult = v.InferOutput<typeof SelectionResult>;

export function selectionResult(root: string, selection: Selection): SelectionResult {
  const { start, end, isEmpty } = selection.selection;
  return {
    file: shownPath(root, selection.filePath),
    text: selection.text,
    start: { line: start.line + 1, column: start.character + 1 },
    end: { line: end.line + 1, column: end.character + 1 },
    isEmpty,
  };
}
