// getNotebookCells: a Jupyter notebook's cells as VS Code has the document (unsaved edits included):
// each cell's kind, language, text, last run and how many outputs it has. No kernel is needed.
import * as v from "valibot";
import { defineTool } from "../platform/define-tool.ts";
import { cellHeading, NOTEBOOK_PROTOCOL, notebookFile } from "./notebook-view.ts";

const DEFAULT_SOURCE_CHARS = 4_000;

export default defineTool({
  name: "getNotebookCells",
  title: "Notebook cells",
  description:
    "Lists a Jupyter notebook's (.ipynb) cells as VS Code has it, unsaved edits included: index, kind, language, source, last run and output count.",
  searchHint: "jupyter notebook ipynb cells list read notebook code markdown",
  input: v.strictObject({
    file: v.pipe(v.string(), v.minLength(1), v.description("Workspace-relative .ipynb file.")),
    maxSourceChars: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(50_000), v.description(`Per cell (default ${DEFAULT_SOURCE_CHARS}).`)),
    ),
  }),
  annotations: { readOnlyHint: true },
  extensionProtocol: NOTEBOOK_PROTOCOL,
  async viaExtension(input, ctx) {
    const file = await notebookFile(ctx, input.file);
    const maxSourceChars = input.maxSourceChars ?? DEFAULT_SOURCE_CHARS;
    const r = await ctx.extension.request("extension/notebookCells", { filePath: file.path, maxSourceChars }, { signal: ctx.signal });
    const head = `${file.relative} (${r.notebookType}, ${r.cells.length} cell${r.cells.length === 1 ? "" : "s"}${r.dirty ? ", UNSAVED changes" : ""}):`;
    const cells = r.cells.map((c) => `${cellHeading(c)}\n${c.source}${c.sourceTruncated === true ? "\n[source cut]" : ""}`);
    return [head, ...cells].join("\n\n");
  },
});
