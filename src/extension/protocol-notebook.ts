// The requests of protocol 1.5: Jupyter notebooks (.ipynb) as VS Code has them (vscode.workspace's
// notebook documents, read through VS Code's own ipynb serializer, unsaved edits included), kept
// beside protocol.ts, which spreads them into BRIDGE_REQUESTS. Outputs travel as text (stdout,
// stderr, errors, text/* and JSON, each cut) or, for binary items such as images, as their mime
// type and size only: the bridge never forwards a kernel's bytes.
import * as v from "valibot";
import { MAX_WAIT_MS } from "./protocol-ide.ts";

export const NOTEBOOK_PROTOCOL_VERSION = "1.5.0";
/** The most characters of one output item's text the extension sends. */
export const MAX_OUTPUT_ITEM_CHARS = 20_000;

const str = v.string();
const count = v.pipe(v.number(), v.integer(), v.minValue(0));

export const WireCell = v.object({
  index: count,
  kind: v.picklist(["code", "markup"]),
  language: str,
  /** The cell's text, cut to the request's maxSourceChars. */
  source: str,
  sourceTruncated: v.optional(v.boolean()),
  /** The kernel's execution count of its last run, when it ran. */
  executionOrder: v.optional(count),
  /** Whether its last run succeeded, when the kernel said. */
  success: v.optional(v.boolean()),
  outputs: count,
});
export type WireCell = v.InferOutput<typeof WireCell>;

export const WireOutputItem = v.object({
  mime: str,
  /** Text items: the text (cut); absent for binary items. */
  text: v.optional(str),
  truncated: v.optional(v.boolean()),
  bytes: count,
});
export type WireOutputItem = v.InferOutput<typeof WireOutputItem>;

/** One output of a cell: its items (the same result in several mime types). */
const WireOutput = v.array(WireOutputItem);

const CellOutputs = v.object({ cell: WireCell, outputs: v.array(WireOutput) });

export const NOTEBOOK_REQUESTS = {
  "extension/notebookCells": {
    params: v.object({ filePath: str, maxSourceChars: count }),
    result: v.object({ notebookType: str, dirty: v.boolean(), cells: v.array(WireCell) }),
  },
  "extension/notebookOutput": {
    params: v.object({ filePath: str, index: count, maxChars: v.pipe(count, v.maxValue(MAX_OUTPUT_ITEM_CHARS)) }),
    result: CellOutputs,
  },
  /**
   * Runs one code cell in the notebook's kernel, after the user agreed in VS Code, and waits up to
   * `waitMs` for the run to end. Fails at once when no installed extension provides notebook kernels.
   */
  "extension/runNotebookCell": {
    params: v.object({
      filePath: str,
      index: count,
      maxChars: v.pipe(count, v.maxValue(MAX_OUTPUT_ITEM_CHARS)),
      waitMs: v.pipe(count, v.maxValue(MAX_WAIT_MS)),
    }),
    result: v.object({
      ...CellOutputs.entries,
      finished: v.boolean(),
      /** Whether VS Code showed the run begin (an output or an execution number); absent from older extensions. */
      started: v.optional(v.boolean()),
    }),
  },
} as const;
