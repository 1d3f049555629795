// What the notebook tools share: the .ipynb file asked for (through the jail, so VS Code is only
// asked about workspace notebooks) and the text a model reads of a cell and its outputs. Outputs are
// text as the kernel printed it (colour codes of tracebacks removed); binary items such as images
// are named by mime type and size, never sent.
import { ToolError } from "../../errors.ts";
import type { ToolContext } from "../../capabilities/context.ts";
import { terminalText } from "../../extension/ansi.ts";
import type { WireCell, WireOutputItem } from "../../extension/protocol-notebook.ts";
import { editorFileFor } from "./vscode-files.ts";

export const NOTEBOOK_PROTOCOL = "1.5.0";

export async function notebookFile(ctx: Pick<ToolContext, "fs">, given: string): Promise<{ path: string; relative: string }> {
  const file = await editorFileFor(ctx, given);
  if (!file.path.toLowerCase().endsWith(".ipynb"))
    throw new ToolError("invalid_arguments", `${file.relative} is not a Jupyter notebook (.ipynb)`, {
      suggestion: "Give an .ipynb file; readFile reads other files.",
    });
  return file;
}

/** "[2] code python · ran [5] · failed · 1 output" */
export function cellHeading(cell: WireCell): string {
  const parts = [`[${cell.index}] ${cell.kind === "code" ? `code ${cell.language}` : "markdown"}`];
  if (cell.executionOrder !== undefined) parts.push(`ran [${cell.executionOrder}]`);
  if (cell.success !== undefined) parts.push(cell.success ? "succeeded" : "failed");
  if (cell.kind === "code") parts.push(`${cell.outputs} output${cell.outputs === 1 ? "" : "s"}`);
  return parts.join(" · ");
}

/** A cell's outputs as text, within `maxChars` in all (the rest counted, not shown). */
export function outputsText(outputs: WireOutputItem[][], maxChars: number): string {
  if (outputs.length === 0) return "(no outputs)";
  const blocks = outputs.map((items, i) => {
    const texts = items.filter((item) => item.text !== undefined).sort((a, b) => preference(a.mime) - preference(b.mime));
    const shown = texts[0];
    const notes = [
      ...items.filter((item) => item.text === undefined).map((item) => `${item.mime} (${item.bytes} bytes, not shown)`),
      ...texts.slice(1).map((item) => `${item.mime} (not shown)`),
    ];
    const head = `--- output ${i + 1}: ${[...(shown === undefined ? [] : [kindOf(shown.mime)]), ...notes].join("; ") || "empty"}`;
    if (shown === undefined) return head;
    const cut = shown.truncated === true ? `\n[cut: the output is ${shown.bytes} bytes]` : "";
    return `${head}\n${terminalText(shown.text ?? "").trimEnd()}${cut}`;
  });
  let text = "";
  for (const [i, block] of blocks.entries()) {
    if (text.length + block.length > maxChars) {
      const room = Math.max(0, maxChars - text.length);
      return `${text}${block.slice(0, room)}\n[outputs cut: ${blocks.length - i} more not shown in full; ask with a larger maxChars]`;
    }
    text += `${i > 0 ? "\n" : ""}${block}`;
  }
  return text;
}

/** Which of an output's text forms a model reads best: printed text first, markup last. */
function preference(mime: string): number {
  const order = [
    "application/vnd.code.notebook.stdout",
    "application/vnd.code.notebook.stderr",
    "application/vnd.code.notebook.error",
    "text/plain",
  ];
  const at = order.indexOf(mime);
  return at >= 0 ? at : mime.startsWith("text/html") ? order.length + 1 : order.length;
}

function kindOf(mime: string): string {
  if (mime === "application/vnd.code.notebook.stdout") return "stdout";
  if (mime === "application/vnd.code.notebook.stderr") return "stderr";
  if (mime === "application/vnd.code.notebook.error") return "error";
  return mime;
}
