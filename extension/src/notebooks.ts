// Jupyter notebooks for the bridge (protocol 1.5, protocol-notebook.ts): cells and outputs read from
// VS Code's notebook document (its built-in ipynb serializer; no kernel needed), and one code cell
// run in the notebook's kernel. Running is code execution with the kernel's whole environment, so
// the user agrees to each run in VS Code first; and VS Code has no API to list kernels, so a
// notebook with no extension that could provide one is refused before anything is shown.
import * as vscode from "vscode";
import type { ParamsOf, ResultOf } from "../../src/extension/protocol.ts";
import type { WireCell, WireOutputItem } from "../../src/extension/protocol-notebook.ts";
import { Failure } from "./failure.ts";

const TEXT_MIME = /^(text\/|application\/(json|javascript|xml|x-.*|vnd\.code\.notebook\.(stdout|stderr))$)/;
const ERROR_MIME = "application/vnd.code.notebook.error";
/** Extensions that are not kernels although they activate on notebooks: the serializer itself. */
const NOT_KERNELS = new Set(["vscode.ipynb"]);
const decoder = new TextDecoder();

export async function notebookCells(p: ParamsOf<"extension/notebookCells">): Promise<ResultOf<"extension/notebookCells">> {
  const doc = await notebookAt(p.filePath);
  return { notebookType: doc.notebookType, dirty: doc.isDirty, cells: doc.getCells().map((c) => wireCell(c, p.maxSourceChars)) };
}

export async function notebookOutput(p: ParamsOf<"extension/notebookOutput">): Promise<ResultOf<"extension/notebookOutput">> {
  const cell = cellAt(await notebookAt(p.filePath), p.index);
  return outputsOf(cell, p.maxChars);
}

export async function runNotebookCell(p: ParamsOf<"extension/runNotebookCell">): Promise<ResultOf<"extension/runNotebookCell">> {
  const doc = await notebookAt(p.filePath);
  const cell = cellAt(doc, p.index);
  if (cell.kind !== vscode.NotebookCellKind.Code)
    throw new Failure(
      "invalid_arguments",
      `Cell ${p.index} is a markdown cell; only code cells run`,
      "getNotebookCells lists the cells and their kinds.",
    );
  const providers = kernelProviders(doc.notebookType);
  if (providers.length === 0)
    throw new Failure(
      "not_supported",
      `No notebook kernel can run this cell: no installed VS Code extension provides kernels for ${doc.notebookType} notebooks`,
      "Install VS Code's Jupyter extension (ms-toolsai.jupyter) with the Python extension and a Python environment that has ipykernel, select a kernel for the notebook, then run it again. getNotebookCells and getNotebookOutput work without a kernel.",
    );
  const name = vscode.workspace.asRelativePath(doc.uri);
  // One wait for both the user's answer and the run (the bridge's request is sized on it).
  const deadline = Date.now() + p.waitMs;
  const answer = await withinWait(
    vscode.window.showWarningMessage(
      `Claude asks to run cell ${p.index} of ${name} in the notebook's kernel.`,
      { modal: true, detail: cell.document.getText().slice(0, 500) },
      "Run",
    ),
    p.waitMs,
  );
  if (answer !== "Run")
    throw new Failure(
      "permission_denied",
      answer === undefined ? `The user did not agree to run cell ${p.index} of ${name}` : `The user declined to run cell ${p.index}`,
      "Ask the user to run it in VS Code; getNotebookOutput reads its outputs afterwards.",
    );
  // VS Code runs cells of a notebook shown in an editor: shown without taking the focus.
  await vscode.window.showNotebookDocument(doc, { preserveFocus: true, preview: false });
  // A run's end sets the cell's success, or its end time. Its start shows as the kernel's first output
  // or execution number: VS Code clears the run state already when it queues the cell, before any
  // kernel is picked, and has no event for the start itself.
  let sub: vscode.Disposable | undefined;
  let started = false;
  const ended = new Promise<true>((resolve) => {
    sub = vscode.workspace.onDidChangeNotebookDocument((e) => {
      const change = e.notebook === doc ? e.cellChanges.find((c) => c.cell === cell) : undefined;
      if (change === undefined) return;
      const summary = change.executionSummary;
      if (change.outputs !== undefined || summary?.executionOrder !== undefined) started = true;
      if (summary !== undefined && (summary.success !== undefined || summary.timing?.endTime !== undefined)) resolve(true);
    });
  });
  try {
    // The command returns when the kernel's handler does, which for most kernels (Jupyter's, ours in
    // the tests) is the end of the run, or when the user has picked a kernel: never awaited past the wait.
    const executing = Promise.resolve(
      vscode.commands.executeCommand("notebook.cell.execute", { ranges: [{ start: p.index, end: p.index + 1 }], document: doc.uri }),
    );
    const finished = (await withinWait(Promise.race([ended, executing.then(() => ended)]), Math.max(0, deadline - Date.now()))) === true;
    // A failure after the wait has nobody to tell: kept out of the extension host's unhandled rejections.
    executing.catch(() => undefined);
    return { ...outputsOf(cell, p.maxChars), finished, started: started || finished };
  } finally {
    sub?.dispose();
  }
}

/** Installed extensions that may provide a kernel for the notebook type: those that activate on its notebooks. */
function kernelProviders(notebookType: string): vscode.Extension<unknown>[] {
  const events = new Set([`onNotebook:${notebookType}`, "onNotebook:*"]);
  return vscode.extensions.all.filter((e) => {
    if (NOT_KERNELS.has(e.id)) return false;
    const activation = (e.packageJSON as { activationEvents?: unknown }).activationEvents;
    return Array.isArray(activation) && activation.some((a) => typeof a === "string" && events.has(a));
  });
}

async function notebookAt(filePath: string): Promise<vscode.NotebookDocument> {
  const uri = vscode.Uri.file(filePath);
  const open = vscode.workspace.notebookDocuments.find((d) => d.uri.fsPath === uri.fsPath);
  if (open !== undefined) return open;
  try {
    return await vscode.workspace.openNotebookDocument(uri);
  } catch (err) {
    throw new Failure(
      "tool_failed",
      `VS Code could not open ${filePath} as a notebook: ${err instanceof Error ? err.message : String(err)}`,
      "Check that it is a valid .ipynb file (VS Code's ipynb support reads it).",
    );
  }
}

function cellAt(doc: vscode.NotebookDocument, index: number): vscode.NotebookCell {
  if (index >= doc.cellCount)
    throw new Failure(
      "not_found",
      `The notebook has ${doc.cellCount} cells (0 to ${doc.cellCount - 1}); there is no cell ${index}`,
      "getNotebookCells lists them.",
    );
  return doc.cellAt(index);
}

function wireCell(cell: vscode.NotebookCell, maxSourceChars: number): WireCell {
  const source = cell.document.getText();
  const summary = cell.executionSummary;
  return {
    index: cell.index,
    kind: cell.kind === vscode.NotebookCellKind.Code ? "code" : "markup",
    language: cell.document.languageId,
    source: source.slice(0, maxSourceChars),
    ...(source.length > maxSourceChars ? { sourceTruncated: true } : {}),
    ...(summary?.executionOrder === undefined ? {} : { executionOrder: summary.executionOrder }),
    ...(summary?.success === undefined ? {} : { success: summary.success }),
    outputs: cell.outputs.length,
  };
}

function outputsOf(cell: vscode.NotebookCell, maxChars: number): { cell: WireCell; outputs: WireOutputItem[][] } {
  return {
    cell: wireCell(cell, maxChars),
    outputs: cell.outputs.map((o) => o.items.map((item) => wireItem(item, maxChars))),
  };
}

function wireItem(item: vscode.NotebookCellOutputItem, maxChars: number): WireOutputItem {
  const bytes = item.data.byteLength;
  let text: string | undefined;
  if (item.mime === ERROR_MIME) {
    const error = JSON.parse(decoder.decode(item.data)) as { name?: string; message?: string; stack?: string };
    text = [`${error.name ?? "Error"}: ${error.message ?? ""}`, error.stack ?? ""].filter((s) => s !== "").join("\n");
  } else if (TEXT_MIME.test(item.mime)) text = decoder.decode(item.data);
  if (text === undefined) return { mime: item.mime, bytes };
  return { mime: item.mime, text: text.slice(0, maxChars), ...(text.length > maxChars ? { truncated: true } : {}), bytes };
}

/** The promise's value, or undefined once `ms` have passed. */
function withinWait<T>(promise: Thenable<T>, ms: number): Promise<T | undefined> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => resolve(undefined), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err);
      },
    );
  });
}
