// The editor side of the extension in a REAL VS Code (the one code-server of vscode-ide.test.ts):
// VS Code's diagnostics, goToDefinition, findReferences, hover and outline, an unsaved buffer, a
// selection made in the editor (as a tool answer and as selection_changed), getToolCapabilities,
// doctor (installed, connected), getDiagnostics of a file no editor shows (VS Code checks it in a
// background tab), protocol 1.3's signature help, quick fix, rename and formatting, openDiff
// accepted and rejected through the UI (a screenshot kept in test-results/), and what needs a kernel
// while this VS Code has none (the test kernel is installed later, before the window reloads): a
// notebook's cells and saved outputs read, runNotebookCell's and executeCode's answers naming what
// to install, and captureScreenshot's honest isError.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, it } from "vitest";
import { toolErrorCode } from "../../helpers/tool-error.ts";
import { ARTIFACTS, textOf, type VSCodeE2E, waitUntil } from "../../helpers/vscode-e2e.ts";

/** A 1x1 PNG, as a plot's output in a saved notebook. */
const PNG_BASE64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

/** The editor cases' part of the workspace. */
export const EDITOR_FILES: Record<string, string> = {
  "tsconfig.json": JSON.stringify({ compilerOptions: { strict: true, noEmit: true, target: "ES2022" }, include: ["*.ts"] }),
  "a.ts": "export function foo(x: number): number {\n  return x * 2;\n}\n",
  "b.ts": 'import { foo } from "./a";\nconst s: string = foo(1);\nexport const label = "b";\n',
  // For the protocol-1.3 tools: a function to rename and call, a use missing its import (a quick
  // fix), a file to format.
  "c.ts": 'export function twice(n: number, label: string): string {\n  return label + n * 2;\n}\nexport const r = twice(2, "x");\n',
  "e.ts": 'export const t = twice(3, "y");\n',
  "f.ts": "export const  y  =  1 ;\n",
  // A file no editor shows: getDiagnostics has VS Code check it in a background tab.
  "g.ts": 'export const g: number = "g";\n',
  // A notebook as Jupyter saves one: markdown, printed output, an error with a coloured traceback, a plot.
  "nb.ipynb": notebook(),
};

/** Registers the editor cases, in order, on the file's VS Code. */
export function editorCases(vs: VSCodeE2E): void {
  it("VS Code's diagnostics, goToDefinition, an unsaved buffer and the selection reach the bridge's tools", async () => {
    expect(await vs.text("openFile", { file: "b.ts", line: 2 })).toMatch(/^Opened b\.ts at line 2 in VS Code \(typescript, 4 lines\)/);
    // TypeScript reports syntax first and type errors a moment later, and may clear and report them
    // again while its project loads (the workspace's package.json): asked until the type error is
    // there, and that answer is the one checked.
    // biome-ignore lint/suspicious/noExplicitAny: the e2e reads tool answers loosely
    let diagnostics: any;
    await waitUntil(
      "VS Code's TypeScript to report b.ts's type error",
      async () => {
        diagnostics = await vs.data("getDiagnostics", { file: "b.ts" });
        // Until VS Code has checked the file, the bridge's own server answers for it (named in sources).
        return diagnostics.sources.includes("VS Code (ts)") && diagnostics.diagnostics.some((d: { code?: string }) => d.code === "TS2322");
      },
      120_000,
    );
    expect(diagnostics.diagnostics).toEqual(
      expect.arrayContaining([expect.objectContaining({ file: "b.ts", line: 2, code: "TS2322", severity: "error", source: "ts" })]),
    );
    expect(diagnostics.sources).toEqual(["VS Code (ts)"]);

    const definition = await vs.mcp.callTool({ name: "goToDefinition", arguments: { file: "b.ts", line: 2, symbol: "foo" } });
    expect(definition._meta).toEqual({ "claude-ide-bridge/backend": "extension" });
    expect(textOf(definition)).toMatch(/1 definition of `foo` \(b\.ts:2:\d+, VS Code\):\na\.ts:1:17 {2}export function foo/);

    // The rest of code navigation and intelligence through VS Code's providers, in the headless shapes.
    const references = await vs.mcp.callTool({ name: "findReferences", arguments: { file: "a.ts", line: 1, symbol: "foo" } });
    expect(references._meta).toEqual({ "claude-ide-bridge/backend": "extension" });
    expect(textOf(references)).toMatch(
      /^3 references to `foo` in 2 files \(VS Code, complete\):\na\.ts:1:17 .*\nb\.ts:1:10 .*\nb\.ts:2:19 /,
    );
    expect(await vs.text("getHover", { file: "a.ts", line: 1, symbol: "foo" })).toMatch(/function foo\(x: number\): number/);
    expect(await vs.text("getTypeSignature", { file: "a.ts", line: 1, symbol: "foo" })).toMatch(/function foo\(x: number\): number/);
    // TypeScript's outline names a const a variable in VS Code.
    expect(await vs.text("getDocumentSymbols", { file: "b.ts" })).toBe("b.ts (4 lines, VS Code):\ns variable :2\nlabel variable :3");

    // Typed into the editor, not saved: the bridge sees VS Code's buffer.
    await vs.page.locator(".monaco-editor .view-lines").first().click();
    await vs.page.keyboard.press("Control+End");
    await vs.page.keyboard.type("// unsaved edit");
    await waitUntil(
      "VS Code to report the edit",
      async () => (await vs.text("getBufferContent", { filePath: "b.ts" })).includes("// unsaved edit"),
      10_000,
    );
    expect(await vs.text("getBufferContent", { filePath: "b.ts" })).toMatch(
      /\/\/ unsaved edit\n\[b\.ts as open in VS Code, with UNSAVED changes/,
    );
    expect(await vs.data("checkDocumentDirty", { file: "b.ts" })).toEqual({ open: true, dirty: true });

    // A selection made with the keyboard in the editor: getCurrentSelection, and selection_changed on the IDE link.
    await vs.page.keyboard.press("Control+Home");
    await vs.page.keyboard.press("ArrowDown");
    await vs.page.keyboard.press("Home");
    await vs.page.keyboard.press("Shift+End");
    const line2 = "const s: string = foo(1);";
    await waitUntil("the selection", async () => (await vs.data("getCurrentSelection")).selection?.text === line2, 10_000);
    expect((await vs.data("getCurrentSelection")).selection).toMatchObject({
      file: "b.ts",
      text: line2,
      start: { line: 2, column: 1 },
      end: { line: 2 },
    });
    const notified = await vs.ide.waitFor(
      (m) => m.method === "selection_changed" && (m.params as { text?: string }).text === line2,
      10_000,
    );
    expect(notified.params).toMatchObject({
      filePath: join(vs.bridge.workspace, "b.ts"),
      selection: { start: { line: 1, character: 0 }, isEmpty: false },
    });

    const caps = await vs.data("getToolCapabilities");
    expect(caps.extensionConnected).toBe(true);
    expect(caps.extensionProtocol).toBe("1.5.0");
    expect(caps.fallback).toEqual([]);
    expect(caps.unavailable.map((u: { name: string }) => u.name)).not.toContain("getCurrentSelection");
  }, 180_000);

  it("doctor finds the extension installed in code-server and connected to the bridge", async () => {
    const extension = vs.doctorExtensionChecks();
    expect(extension).toEqual(
      expect.arrayContaining([
        { area: "extension", status: "ok", summary: "installed in code-server" },
        expect.objectContaining({ status: "ok", summary: expect.stringMatching(/^connected to the bridge \(.+, extension 0\.1\.0\)$/) }),
      ]),
    );
  }, 150_000);

  it("getDiagnostics on a file no editor shows: VS Code checks it in a background tab, which it closes again", async () => {
    // biome-ignore lint/suspicious/noExplicitAny: the e2e reads tool answers loosely
    let diagnostics: any;
    // On a loaded machine VS Code's first report may take longer than the extension's wait; the
    // bridge's own server answers for that call (named in skipped), and the next call asks VS Code again.
    await waitUntil(
      "VS Code's TypeScript to check g.ts",
      async () => {
        diagnostics = await vs.data("getDiagnostics", { file: "g.ts" });
        return diagnostics.sources[0] === "VS Code (ts)" && diagnostics.skipped.length === 0;
      },
      120_000,
    );
    expect(diagnostics.diagnostics).toEqual([
      expect.objectContaining({ file: "g.ts", line: 1, code: "TS2322", severity: "error", source: "ts" }),
    ]);
    expect(diagnostics.sources).toEqual(["VS Code (ts)"]);
    const editors = (await vs.data("getOpenEditors")).editors as { file: string }[];
    expect(editors.map((e) => e.file)).not.toContain("g.ts");
  }, 180_000);

  it("notebooks through VS Code: cells and outputs without a kernel; running a cell names the kernel to install; no screenshot", async () => {
    const cells = await vs.text("getNotebookCells", { file: "nb.ipynb" });
    expect(cells).toMatch(/^nb\.ipynb \(jupyter-notebook, 4 cells\):\n\n\[0\] markdown\n# Sales\nTotals by month\.\n\n/);
    expect(cells).toMatch(/\n\[1\] code python · ran \[1\] · (succeeded · )?1 output\nprint\('total', 42\)\n/);
    expect(await vs.text("getNotebookOutput", { file: "nb.ipynb", cell: 1 })).toMatch(
      /^nb\.ipynb \[1\] code python · ran \[1\] · (succeeded · )?1 output\n--- output 1: stdout\ntotal 42$/,
    );
    const error = await vs.text("getNotebookOutput", { file: "nb.ipynb", cell: 2 });
    expect(error).toMatch(/\n--- output 1: error\nZeroDivisionError: division by zero\nZeroDivisionError +Traceback/);
    expect(error).not.toContain("\u001b");
    const plot = await vs.text("getNotebookOutput", { file: "nb.ipynb", cell: 3 });
    const pngBytes = Buffer.from(PNG_BASE64, "base64").length;
    expect(plot).toMatch(
      new RegExp(`\n--- output 1: text/plain; image/png \\(${pngBytes} bytes, not shown\\)\n<Figure size 640x480 with 1 Axes>$`),
    );
    const missing = await vs.mcp.callTool({ name: "getNotebookOutput", arguments: { file: "nb.ipynb", cell: 9 } });
    expect(toolErrorCode(missing)).toBe("not_found");

    // code-server has no kernel offline (no Jupyter extension): said before anything is shown to the user.
    const run = await vs.mcp.callTool({ name: "runNotebookCell", arguments: { file: "nb.ipynb", cell: 1 } });
    expect(toolErrorCode(run)).toBe("not_supported");
    expect(textOf(run)).toMatch(/no installed VS Code extension provides kernels for jupyter-notebook notebooks[\s\S]*ms-toolsai\.jupyter/);

    const shot = await vs.mcp.callTool({ name: "captureScreenshot", arguments: {} });
    expect(toolErrorCode(shot)).toBe("not_supported");
    expect(textOf(shot)).toMatch(/^The connected .+ does not allow it: VS Code's extension API has no screen capture/);
  }, 180_000);

  it("openDiff through Claude Code's IDE link: shown as a VS Code diff, accepted and rejected in the UI", async () => {
    const proposal = "export function foo(x: number): number {\n  return x * 3;\n}\n";
    const tab = "✻ [Claude Code] a.ts (e2e) ⧉";
    const accepted = vs.ide.call("openDiff", {
      old_file_path: join(vs.bridge.workspace, "a.ts"),
      new_file_path: join(vs.bridge.workspace, "a.ts"),
      new_file_contents: proposal,
      tab_name: tab,
    });
    const accept = vs.page.locator('.editor-actions [aria-label^="Accept Claude\'s Change"]').first();
    await vs.shotOnFailure("open-diff-failure", () => accept.waitFor({ state: "visible", timeout: 60_000 }));
    await vs.page.locator(".monaco-diff-editor").first().waitFor({ state: "visible" });
    await vs.page.screenshot({ path: join(ARTIFACTS, "vscode-open-diff.png") });
    await accept.click();
    expect((await accepted).result).toMatchObject({
      content: [
        { type: "text", text: "FILE_SAVED" },
        { type: "text", text: proposal },
      ],
    });
    const rejected = vs.ide.call("openDiff", {
      old_file_path: join(vs.bridge.workspace, "a.ts"),
      new_file_path: join(vs.bridge.workspace, "a.ts"),
      new_file_contents: "x\n",
      tab_name: "second",
    });
    const reject = vs.page.locator('.editor-actions [aria-label^="Reject Claude\'s Change"]').first();
    await vs.shotOnFailure("reject-diff-failure", () => reject.waitFor({ state: "visible", timeout: 60_000 }));
    await reject.click();
    expect((await rejected).result).toMatchObject({
      content: [
        { type: "text", text: "DIFF_REJECTED" },
        { type: "text", text: "second" },
      ],
    });
    expect((await vs.ide.call("closeAllDiffTabs", {})).result).toMatchObject({ content: [{ type: "text", text: "CLOSED_0_DIFF_TABS" }] });

    // No Jupyter kernel in this VS Code (its Jupyter extension cannot be installed offline): executeCode says so.
    const executed = (await vs.ide.call("executeCode", { code: "print(1)" })).result as { isError?: boolean; content: { text: string }[] };
    expect(executed.isError).toBe(true);
    expect(executed.content[0]?.text).toMatch(/No Jupyter notebook kernel/);
  }, 180_000);

  it("protocol 1.3 through VS Code: signature help, a quick fix previewed and applied by the bridge, rename preview, formatting", async () => {
    const callLine = 'export const r = twice(2, "x");';
    // Until VS Code's TypeScript has loaded c.ts's project it has no signature to give, and the bridge's
    // own server answers (named in _meta): asked until VS Code answers.
    let help: Awaited<ReturnType<typeof vs.call>> | undefined;
    await waitUntil(
      "VS Code's signature help in c.ts",
      async () => {
        help = await vs.call("signatureHelp", { file: "c.ts", line: 4, column: callLine.indexOf('"x"') + 1 });
        return help._meta?.["claude-ide-bridge/backend"] === "extension";
      },
      120_000,
    );
    if (help === undefined) throw new Error("no signature help");
    expect(textOf(help)).toMatch(/^\* twice\(n: number, label: string\): string\n {6}n: number\n {4}> label: string[\s\S]*\(VS Code\)$/);

    // e.ts uses twice without importing it: VS Code's TypeScript offers the import, the bridge writes it.
    await vs.text("openFile", { file: "e.ts" });
    await waitUntil(
      "VS Code's TypeScript to report e.ts's missing name",
      async () =>
        (await vs.data("getDiagnostics", { file: "e.ts" })).diagnostics.some(
          (d: { line: number; severity: string }) => d.line === 1 && d.severity === "error",
        ),
      120_000,
    );
    const actions = await vs.mcp.callTool({ name: "getCodeActions", arguments: { file: "e.ts", startLine: 1 } });
    expect(actions._meta).toEqual({ "claude-ide-bridge/backend": "extension" });
    expect(textOf(actions)).toMatch(/code actions? for e\.ts lines 1-1 \(VS Code\):\n[\s\S]*Add import from "\.\/c"/);
    const preview = await vs.text("previewCodeAction", { file: "e.ts", startLine: 1, title: 'Add import from "./c"' });
    expect(preview).toMatch(/^Would apply "Add import from "\.\/c"": 1 file \(dry run; nothing written; computed by VS Code\)\./);
    expect(preview).toMatch(/\+import \{ twice \} from "\.\/c";/);
    const digest = /Preview ([0-9a-f]{8})/.exec(preview)?.[1];
    expect(await readFile(join(vs.bridge.workspace, "e.ts"), "utf8")).toBe(EDITOR_FILES["e.ts"]);
    const applied = await vs.text("applyCodeAction", { file: "e.ts", startLine: 1, title: 'Add import from "./c"', preview: digest });
    expect(applied).toMatch(/^Applied "Add import from "\.\/c"": 1 file written together \(computed by VS Code\)\./);
    expect(await readFile(join(vs.bridge.workspace, "e.ts"), "utf8")).toMatch(
      /^import \{ twice \} from "\.\/c";\n\n?export const t = twice\(3, "y"\);\n$/,
    );

    expect(await vs.text("prepareRename", { file: "c.ts", line: 1, symbol: "twice" })).toBe(
      '`twice` can be renamed: c.ts:1:17-1:22 ("twice") (VS Code).',
    );
    // VS Code sees e.ts's new import once it has reloaded the file: the rename then reaches both files.
    let rename = "";
    await waitUntil(
      "VS Code's rename to reach e.ts",
      async () => {
        rename = await vs.text("renameSymbol", { file: "c.ts", line: 1, symbol: "twice", newName: "double", dryRun: true });
        return rename.includes("2 files");
      },
      60_000,
    );
    expect(rename).toMatch(/^Would rename `twice` to `double`: 2 files \(dry run; nothing written; computed by VS Code\)\./);
    expect(rename).toMatch(/\+export function double\(n: number[\s\S]*\+import \{ double \} from "\.\/c";/);
    expect(await readFile(join(vs.bridge.workspace, "c.ts"), "utf8")).toBe(EDITOR_FILES["c.ts"]);

    const formatted = await vs.mcp.callTool({ name: "formatDocument", arguments: { file: "f.ts" } });
    expect(formatted._meta).toEqual({ "claude-ide-bridge/backend": "extension" });
    expect(textOf(formatted)).toMatch(/^Formatted f\.ts with VS Code's formatter\./);
    expect(await readFile(join(vs.bridge.workspace, "f.ts"), "utf8")).toBe("export const y = 1;\n");
  }, 240_000);
}

function notebook(): string {
  const code = (n: number, source: string, outputs: unknown[]) => ({
    cell_type: "code",
    execution_count: n,
    metadata: {},
    outputs,
    source: [source],
  });
  return JSON.stringify({
    cells: [
      { cell_type: "markdown", metadata: {}, source: ["# Sales\n", "Totals by month."] },
      code(1, "print('total', 42)", [{ name: "stdout", output_type: "stream", text: ["total 42\n"] }]),
      code(2, "1/0", [
        {
          ename: "ZeroDivisionError",
          evalue: "division by zero",
          output_type: "error",
          traceback: [
            "\u001b[0;31mZeroDivisionError\u001b[0m Traceback (most recent call last)",
            "\u001b[0;31mZeroDivisionError\u001b[0m: division by zero",
          ],
        },
      ]),
      code(3, "plot()", [
        {
          data: { "image/png": PNG_BASE64, "text/plain": ["<Figure size 640x480 with 1 Axes>"] },
          metadata: {},
          output_type: "display_data",
        },
      ]),
    ],
    metadata: { kernelspec: { display_name: "Python 3", language: "python", name: "python3" }, language_info: { name: "python" } },
    nbformat: 4,
    nbformat_minor: 5,
  });
}
