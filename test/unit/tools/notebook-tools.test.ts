// The notebook tools and captureScreenshot with an in-process fake extension: what they ask VS Code
// (only workspace .ipynb files, the caps), how a cell and its outputs read (colour codes removed,
// images named by type and size, the whole cut to maxChars), and an extension older than protocol
// 1.5 named. The real VS Code (its ipynb serializer) runs in test/e2e/vscode-ide.test.ts (vscode-cases/editor.ts; with a kernel, vscode-cases/notebook-kernel.ts).
import { afterAll, beforeAll, expect, it } from "vitest";
import type { WireCell } from "../../../src/extension/protocol-notebook.ts";
import { connectedExtension, extensionClient, FakeExtension } from "../../helpers/fake-extension.ts";
import { tempWorkspaces, type TempWorkspaces } from "../../helpers/temp-workspace.ts";
import { dispatcher } from "../../helpers/tool-dispatch.ts";

let spaces: TempWorkspaces;
let root: string;
beforeAll(async () => {
  spaces = await tempWorkspaces("notebook-tools-");
  root = await spaces.make("ws", { "nb.ipynb": "{}", "notes.md": "# x\n" });
});
afterAll(() => spaces.remove());

const ran: WireCell = { index: 1, kind: "code", language: "python", source: "1/0", executionOrder: 4, success: false, outputs: 2 };
const outputs = [
  [{ mime: "application/vnd.code.notebook.error", text: "ZeroDivisionError: division by zero\n\u001b[0;31mTraceback\u001b[0m", bytes: 60 }],
  [
    { mime: "image/png", bytes: 2048 },
    { mime: "text/html", text: "<b>fig</b>", bytes: 10 },
    { mime: "text/plain", text: "<Figure>", bytes: 8 },
  ],
];

it("getNotebookCells and getNotebookOutput read VS Code's notebook: kinds, runs, outputs as text, images by size", async () => {
  const fake = connectedExtension({
    "extension/notebookCells": () => ({
      notebookType: "jupyter-notebook",
      dirty: true,
      cells: [
        { index: 0, kind: "markup", language: "markdown", source: "# Title", outputs: 0 },
        { ...ran, sourceTruncated: true },
      ],
    }),
    "extension/notebookOutput": () => ({ cell: ran, outputs }),
  });
  const d = await dispatcher(root, { extension: fake.client });
  expect(await d.text("getNotebookCells", { file: "nb.ipynb", maxSourceChars: 3 })).toBe(
    "nb.ipynb (jupyter-notebook, 2 cells, UNSAVED changes):\n\n[0] markdown\n# Title\n\n[1] code python · ran [4] · failed · 2 outputs\n1/0\n[source cut]",
  );
  expect(await d.text("getNotebookOutput", { file: "nb.ipynb", cell: 1 })).toBe(
    [
      "nb.ipynb [1] code python · ran [4] · failed · 2 outputs",
      "--- output 1: error",
      "ZeroDivisionError: division by zero",
      "Traceback",
      "--- output 2: text/plain; image/png (2048 bytes, not shown); text/html (not shown)",
      "<Figure>",
    ].join("\n"),
  );
  // The whole answer is cut to maxChars, saying how many outputs were not shown in full.
  expect(await d.text("getNotebookOutput", { file: "nb.ipynb", cell: 1, maxChars: 100 })).toMatch(
    /^nb\.ipynb \[1\][^\n]*\n--- output 1: error\nZeroDivisionError: division by zero\nTraceback\n?[^\n]*\n\[outputs cut: 1 more not shown in full; ask with a larger maxChars\]$/,
  );
  expect(fake.requests().map((r) => r.params)).toEqual([
    { filePath: `${root}/nb.ipynb`, maxSourceChars: 3 },
    { filePath: `${root}/nb.ipynb`, index: 1, maxChars: 8000 },
    { filePath: `${root}/nb.ipynb`, index: 1, maxChars: 100 },
  ]);
  // Only workspace notebooks reach VS Code.
  expect((await d.failure("getNotebookCells", { file: "notes.md" })).code).toBe("invalid_arguments");
  expect((await d.failure("getNotebookCells", { file: "../elsewhere.ipynb" })).code).toBe("outside_workspace");
  expect(fake.requests()).toHaveLength(3);
});

it("runNotebookCell waits for the run within one wait, and says whether VS Code showed an unfinished run begin", async () => {
  let started: boolean | undefined;
  const fake = connectedExtension({
    "extension/runNotebookCell": () => ({ cell: ran, outputs: [], finished: false, ...(started === undefined ? {} : { started }) }),
  });
  const d = await dispatcher(root, { extension: fake.client });
  const answer = async () => (await d.text("runNotebookCell", { file: "nb.ipynb", cell: 1, waitMs: 2_000 })).split("\n");
  const heading = "nb.ipynb [1] code python · ran [4] · failed · 2 outputs";
  // An extension that does not say (before the field): both possibilities named.
  expect(await answer()).toEqual([
    heading,
    "NOT FINISHED after the wait: the cell is still running, or VS Code is still waiting for a kernel to be picked for the notebook. getNotebookOutput reads its outputs later.",
    "(no outputs)",
  ]);
  started = true;
  expect((await answer())[1]).toBe("STILL RUNNING after the wait: getNotebookOutput reads its outputs later.");
  started = false;
  expect((await answer())[1]).toMatch(
    /^NOT STARTED within the wait \(no output or execution number yet\): VS Code is likely waiting for a kernel to be picked/,
  );
  expect(fake.requests("extension/runNotebookCell")[0]?.params).toEqual({
    filePath: `${root}/nb.ipynb`,
    index: 1,
    maxChars: 8000,
    waitMs: 2_000,
  });
});

it("an extension older than protocol 1.5 is named; captureScreenshot says no host allows one, connected or not", async () => {
  const old = new FakeExtension(extensionClient(), {}).connect({ protocolVersion: "1.4.0" });
  const d = await dispatcher(root, { extension: old.client });
  expect((await d.failure("getNotebookCells", { file: "nb.ipynb" })).error).toMatch(/1\.5/);
  expect(old.requests().filter((r) => r.method.startsWith("extension/notebook"))).toEqual([]);
  const shot = await d.failure("captureScreenshot");
  expect(shot).toMatchObject({
    code: "not_supported",
    error: expect.stringMatching(/^The connected .+ does not allow it: VS Code's extension API has no screen capture/),
  });
  const alone = await dispatcher(root);
  expect((await alone.failure("captureScreenshot")).error).toMatch(/^No VS Code window is connected, and none would allow it/);
});
