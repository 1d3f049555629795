// A notebook cell run in a kernel through the extension in a REAL VS Code (the one code-server of
// vscode-ide.test.ts): a test-only python3 kernel (test/fixtures/notebook-test-kernel, since
// code-server cannot install Jupyter offline), installed once the cases that need a VS Code without
// kernels have run; the user's consent given and refused in VS Code's dialog; text, image and error
// outputs; a cell that outlasts the wait; one waiting for a kernel to be picked.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, it } from "vitest";
import { REPO_ROOT } from "../../helpers/spawn-bridge.ts";
import { toolErrorCode } from "../../helpers/tool-error.ts";
import { textOf, type VSCodeE2E, waitUntil } from "../../helpers/vscode-e2e.ts";

/** The kernel extension's folder (zipped into a .vsix by the harness). */
export const TEST_KERNEL = join(REPO_ROOT, "test", "fixtures", "notebook-test-kernel");

export const KERNEL_FILES: Record<string, string> = {
  // Run by the test kernel: printed text, a PNG it draws, an error; and a cell that waits for a file.
  "run.ipynb": runnableNotebook(),
  // Opened, it brings the test kernel's second kernel: VS Code then asks which one runs its cell.
  "pick.ipynb": JSON.stringify({
    cells: [{ cell_type: "code", execution_count: null, metadata: {}, outputs: [], source: ['print("picked")'] }],
    metadata: { kernelspec: { display_name: "Python 3", language: "python", name: "python3" } },
    nbformat: 4,
    nbformat_minor: 5,
  }),
};

/** Registers the kernel case on the file's VS Code (the test kernel installed and the window reloaded before). */
export function kernelCases(vs: VSCodeE2E): void {
  it("a notebook cell run in a kernel: the user refuses, then agrees in VS Code's dialog; text, image and error outputs; a cell that outlasts the wait; one waiting for a kernel to be picked", async () => {
    // The dialog shows the cell's code; Cancel refuses, and nothing runs.
    const refused = vs.call("runNotebookCell", { file: "run.ipynb", cell: 1 });
    expect(await clickInDialog(vs, "Cancel", refused)).toContain('print("sum", 2 + 3)');
    const no = await refused;
    expect(toolErrorCode(no)).toBe("permission_denied");
    expect(textOf(no)).toMatch(/The user did not agree to run cell 1 of run\.ipynb/);
    expect(await vs.text("getNotebookOutput", { file: "run.ipynb", cell: 1 })).toMatch(
      /^run\.ipynb \[1\] code python · 0 outputs\n\(no outputs\)$/,
    );

    const agreed = vs.call("runNotebookCell", { file: "run.ipynb", cell: 1 });
    await clickInDialog(vs, "Run", agreed);
    const ran = textOf(await agreed);
    // python printed the PNG's size: the note names the image by mime type and that size, not its bytes.
    const pngBytes = /png bytes (\d+)/.exec(ran)?.[1];
    expect(ran).toMatch(
      new RegExp(
        "^run\\.ipynb \\[1\\] code python · ran \\[\\d+\\] · failed · 3 outputs\\n" +
          "--- output 1: stdout\\nsum 5\\npng bytes \\d+\\n" +
          `--- output 2: image/png \\(${pngBytes} bytes, not shown\\)\\n` +
          '--- output 3: error\\nZeroDivisionError: division by zero\\nTraceback \\(most recent call last\\):\\n[\\s\\S]*File "<cell>", line 10, in <module>\\n',
      ),
    );
    expect(ran).not.toMatch(/iVBOR|\\x89PNG/);
    // Read again later: the same outputs, from VS Code's notebook document.
    expect(await vs.text("getNotebookOutput", { file: "run.ipynb", cell: 1 })).toBe(ran);

    // The wait ends before the cell does: said, and its output is read while it runs and after it ends.
    const waiting = vs.call("runNotebookCell", { file: "run.ipynb", cell: 2, waitMs: 8_000 });
    await clickInDialog(vs, "Run", waiting);
    expect(textOf(await waiting)).toMatch(/^run\.ipynb \[2\] code python[^\n]*\nSTILL RUNNING after the wait/);
    await waitUntil(
      "the running cell's first line",
      async () => (await vs.text("getNotebookOutput", { file: "run.ipynb", cell: 2 })).includes("waiting for release"),
      60_000,
    );
    await writeFile(join(vs.workspace, "release"), "");
    await waitUntil(
      "the cell to end",
      async () =>
        /· succeeded · 1 output\n--- output 1: stdout\nwaiting for release\nreleased$/.test(
          await vs.text("getNotebookOutput", { file: "run.ipynb", cell: 2 }),
        ),
      60_000,
    );

    // Two kernels and none bound to the notebook: VS Code asks the user to pick one, and the cell has
    // not begun when the wait ends. The picker is then dismissed, as a user who walks away would.
    const picking = vs.call("runNotebookCell", { file: "pick.ipynb", cell: 0, waitMs: 5_000 });
    await clickInDialog(vs, "Run", picking);
    expect(textOf(await picking)).toMatch(
      /^pick\.ipynb \[0\] code python · 0 outputs\nNOT STARTED within the wait \(no output or execution number yet\): VS Code is likely waiting for a kernel/,
    );
    await vs.page.keyboard.press("Escape");
  }, 240_000);
}

/**
 * Clicks `button` in VS Code's modal dialog once it shows; returns the dialog's text. A call that
 * answers before any dialog showed fails the test with its answer.
 */
async function clickInDialog(vs: VSCodeE2E, button: string, call: ReturnType<VSCodeE2E["call"]>): Promise<string> {
  const dialog = vs.page.locator(".monaco-dialog-box").first();
  const answered = call.then((r) => {
    throw new Error(`answered before any dialog showed: ${textOf(r)}`);
  });
  answered.catch(() => undefined);
  await vs.shotOnFailure(`dialog-${button}`, () => Promise.race([dialog.waitFor({ state: "visible", timeout: 60_000 }), answered]));
  const shown = (await dialog.textContent()) ?? "";
  await vs.page.locator(`.monaco-dialog-box .monaco-button:text-is("${button}")`).first().click();
  await dialog.waitFor({ state: "hidden", timeout: 30_000 });
  return shown;
}

function runnableNotebook(): string {
  const code = (source: string) => ({ cell_type: "code", execution_count: null, metadata: {}, outputs: [], source: [source] });
  // A real PNG drawn by the cell (zlib and struct, no imaging library), then a division by zero.
  const plot = String.raw`import struct, zlib
print("sum", 2 + 3)
def chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
rows = b"".join(b"\x00" + b"\xff\x80\x00" * 4 for _ in range(4))
header = struct.pack(">IIBBBBB", 4, 4, 8, 2, 0, 0, 0)
png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")
print("png bytes", len(png))
display_png(png)
1 / 0`;
  // Waits for the test's signal (a file), for ten minutes at most.
  const slow = `import os, time
print("waiting for release")
for _ in range(12000):
    if os.path.exists("release"):
        break
    time.sleep(0.05)
print("released")`;
  return JSON.stringify({
    cells: [{ cell_type: "markdown", metadata: {}, source: ["# Runs"] }, code(plot), code(slow)],
    metadata: { kernelspec: { display_name: "Python 3", language: "python", name: "python3" }, language_info: { name: "python" } },
    nbformat: 4,
    nbformat_minor: 5,
  });
}
