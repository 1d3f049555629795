// getNotebookOutput: one cell's outputs as the notebook holds them (saved in the .ipynb or from a run
// in VS Code): stdout, stderr, errors with their traceback, text and JSON results; images and other
// binary outputs by mime type and size. No kernel is needed.
import * as v from "valibot";
import { MAX_OUTPUT_ITEM_CHARS } from "../../extension/protocol-notebook.ts";
import { defineTool } from "../platform/define-tool.ts";
import { cellHeading, NOTEBOOK_PROTOCOL, notebookFile, outputsText } from "./notebook-view.ts";

export const DEFAULT_OUTPUT_CHARS = 8_000;

export const notebookCellInput = {
  file: v.pipe(v.string(), v.minLength(1), v.description("Workspace-relative .ipynb file.")),
  cell: v.pipe(v.number(), v.integer(), v.minValue(0), v.description("0-based cell index (getNotebookCells).")),
  maxChars: v.optional(
    v.pipe(
      v.number(),
      v.integer(),
      v.minValue(100),
      v.maxValue(MAX_OUTPUT_ITEM_CHARS),
      v.description(`Of output text in all (default ${DEFAULT_OUTPUT_CHARS}).`),
    ),
  ),
};

export default defineTool({
  name: "getNotebookOutput",
  title: "Notebook cell output",
  description:
    "Reads a Jupyter notebook cell's outputs: stdout, stderr, errors with traceback, text and JSON results; images and other binary outputs by type and size.",
  searchHint: "jupyter notebook ipynb cell output result error traceback image",
  input: v.strictObject(notebookCellInput),
  annotations: { readOnlyHint: true },
  extensionProtocol: NOTEBOOK_PROTOCOL,
  async viaExtension(input, ctx) {
    const file = await notebookFile(ctx, input.file);
    const maxChars = input.maxChars ?? DEFAULT_OUTPUT_CHARS;
    const r = await ctx.extension.request(
      "extension/notebookOutput",
      { filePath: file.path, index: input.cell, maxChars },
      { signal: ctx.signal },
    );
    return `${file.relative} ${cellHeading(r.cell)}\n${outputsText(r.outputs, maxChars)}`;
  },
});
