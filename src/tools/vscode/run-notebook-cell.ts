// runNotebookCell: runs one code cell in the notebook's kernel in VS Code and returns its outputs.
// The cell's code (which anyone who writes the workspace may have written) runs with the kernel's
// whole environment, so the user agrees to each run in a VS Code dialog. VS Code itself has no
// kernel: one comes from an extension (Jupyter), and without one the call fails saying what to install.
import * as v from "valibot";
import { defineTool } from "../platform/define-tool.ts";
import { DEFAULT_OUTPUT_CHARS, notebookCellInput } from "./get-notebook-output.ts";
import { cellHeading, NOTEBOOK_PROTOCOL, notebookFile, outputsText } from "./notebook-view.ts";

const DEFAULT_WAIT_MS = 120_000;

export default defineTool({
  name: "runNotebookCell",
  title: "Run notebook cell",
  description:
    "Runs a Jupyter notebook code cell in VS Code's notebook kernel once the user agrees there, waits for it and returns its outputs; needs a kernel extension (Jupyter).",
  searchHint: "run execute jupyter notebook ipynb cell kernel python",
  input: v.strictObject({
    ...notebookCellInput,
    waitMs: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(1_000),
        v.maxValue(600_000),
        v.description(`Wait this long for the user's answer and the run together (default ${DEFAULT_WAIT_MS}).`),
      ),
    ),
  }),
  annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
  timeoutMs: 620_000,
  extensionProtocol: NOTEBOOK_PROTOCOL,
  async viaExtension(input, ctx) {
    const file = await notebookFile(ctx, input.file);
    const maxChars = input.maxChars ?? DEFAULT_OUTPUT_CHARS;
    const r = await ctx.extension.request(
      "extension/runNotebookCell",
      { filePath: file.path, index: input.cell, maxChars, waitMs: input.waitMs ?? DEFAULT_WAIT_MS },
      { signal: ctx.signal },
    );
    return `${file.relative} ${cellHeading(r.cell)}${unfinished(r)}\n${outputsText(r.outputs, maxChars)}`;
  },
});

/** What a run not finished within the wait is doing, as far as VS Code showed it. */
function unfinished(r: { finished: boolean; started?: boolean }): string {
  const later = "getNotebookOutput reads its outputs later.";
  if (r.finished) return "";
  if (r.started === true) return `\nSTILL RUNNING after the wait: ${later}`;
  if (r.started === false)
    return `\nNOT STARTED within the wait (no output or execution number yet): VS Code is likely waiting for a kernel to be picked for the notebook (ask the user to pick one), or the cell runs silently. ${later}`;
  return `\nNOT FINISHED after the wait: the cell is still running, or VS Code is still waiting for a kernel to be picked for the notebook. ${later}`;
}
