// The IDE side of the extension in a REAL VS Code (code-server + headless Chromium; the harness is
// test/helpers/vscode-e2e.ts): terminals through shell integration (exit codes, a dev server waited
// on, no user secret inside), executeVSCodeCommand's allow and deny lists, a task's exit code,
// workspace settings within the deny table, decorations, the clipboard, the debugger through VS
// Code's js-debug, a notebook run in a kernel (a test-only python3 kernel from
// test/fixtures/notebook-test-kernel, since code-server cannot install Jupyter offline) with the
// user's consent given and refused in VS Code's dialog; then the extension host is killed (tools
// fall back or fail within a second) and restarted (everything back). The editor side is
// vscode-editor.test.ts.
import { execFileSync } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/spawn-bridge.ts";
import { toolErrorCode } from "../helpers/tool-error.ts";
import { CONNECT_TIMEOUT_MS, textOf, useVSCodeE2E, type VSCodeE2E, waitUntil } from "../helpers/vscode-e2e.ts";

const FILES: Record<string, string> = {
  "a.ts": "export function foo(x: number): number {\n  return x * 2;\n}\n",
  // What the terminal tools run: npm scripts (npm is on the default allowlist).
  "package.json": JSON.stringify({
    name: "e2e-ws",
    private: true,
    scripts: {
      hello:
        "node -e \"console.log('hello-' + process.env.GREETING + ' token=' + (process.env.E2E_API_TOKEN ?? 'absent')); process.exit(3)\"",
      serve: "node server.js",
    },
  }),
  ".vscode/tasks.json": JSON.stringify({
    version: "2.0.0",
    tasks: [{ label: "e2e-task", type: "shell", command: "exit 4" }],
  }),
  "server.js": "setTimeout(() => console.log('ready on port 4321'), 300);\nsetInterval(() => {}, 1000);\n",
  // For the debugger through VS Code's js-debug: a breakpoint in add, and a last line with no code.
  "dbg.js":
    'function add(a, b) {\n  const sum = a + b;\n  return sum;\n}\nconst total = add(2, 3);\nconsole.log("total=" + total);\n\n// the end\n',
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

const vs = useVSCodeE2E({
  name: "ide",
  files: FILES,
  bridgeArgs: [
    // VS Code commands allowed: one that answers with data, and three the deny list still refuses.
    "--vscode-allow-command",
    "vscode.getEditorLayout",
    "--vscode-allow-command",
    "workbench.action.terminal.sendSequence",
    "--vscode-allow-command",
    "workbench.extensions.installExtension",
    "--vscode-allow-command",
    "notebook.cell.execute",
    // runVSCodeTask runs only the tasks the user named.
    "--vscode-allow-task",
    "e2e-task",
  ],
  extraExtensions: [join(REPO_ROOT, "test", "fixtures", "notebook-test-kernel")],
  env: {
    // A user's secret in VS Code's environment: terminals the bridge creates must not have it.
    E2E_API_TOKEN: "e2e-secret-value",
    NOTEBOOK_TEST_KERNEL_PYTHON: execFileSync("python3", ["-c", "import sys; print(sys.executable)"], { encoding: "utf8" }).trim(),
  },
});

it("terminals: a command's exit code and output through shell integration, a dev server waited on, no user secret inside", async () => {
  const made = await vs.data("createTerminal", { name: "e2e", env: { GREETING: "there" } });
  expect(made).toMatchObject({ name: "e2e", createdByBridge: true });
  const id = made.id as string;
  // bash starts and VS Code's shell integration reports itself a moment later (seconds on a loaded machine).
  const integrated = async (terminalId: string) =>
    ((await vs.data("listTerminals")).terminals as { id: string; shellIntegration: boolean }[]).some(
      (t) => t.id === terminalId && t.shellIntegration,
    );
  await waitUntil("shell integration in the new terminal", () => integrated(id), 120_000);
  const hello = await vs.text("sendTerminalCommand", { terminal: id, command: "npm", args: ["run", "hello"], waitMs: 60_000 });
  expect(hello).toMatch(new RegExp(`^\\$ npm run hello\\nexit 3 · VS Code terminal ${id} "e2e"\\n`));
  expect(hello).toContain("hello-there token=absent");
  // runInTerminal with VS Code connected: once, in the terminal named, with the exit code.
  const run = await vs.mcp.callTool({ name: "runInTerminal", arguments: { command: "npm run hello", name: "e2e" } });
  expect(run._meta).toEqual({ "claude-ide-bridge/backend": "extension" });
  expect(textOf(run)).toMatch(new RegExp(`^\\$ npm run hello\\nexit 3 · VS Code terminal ${id} "e2e"\\n[\\s\\S]*hello-there token=absent`));

  // A dev server: started without waiting, its "ready" line waited for, its output read later.
  expect(await vs.text("sendTerminalCommand", { terminal: id, command: "npm", args: ["run", "serve"], waitMs: 0 })).toMatch(
    /still running in VS Code terminal/,
  );
  const ready = await vs.text("waitForTerminalOutput", { terminal: id, pattern: "ready on port \\d+", timeoutMs: 60_000 });
  expect(ready).toMatch(/^Matched in terminal .*\n.*ready on port 4321/);
  // The server still runs there: another command is not typed into it.
  const busy = await vs.mcp.callTool({ name: "sendTerminalCommand", arguments: { terminal: id, command: "npm", args: ["run", "hello"] } });
  expect(toolErrorCode(busy)).toBe("tool_failed");
  expect(textOf(busy)).toMatch(/is still running a command/);
  expect(await vs.text("getTerminalOutput", { terminal: "e2e" })).toMatch(
    /hello-there token=absent[\s\S]*hello-there token=absent[\s\S]*ready on port 4321/,
  );
  const listed = (await vs.data("listTerminals")).terminals as { id: string; shellIntegration: boolean; createdByBridge: boolean }[];
  expect(listed).toEqual(expect.arrayContaining([expect.objectContaining({ id, shellIntegration: true, createdByBridge: true })]));

  expect(await vs.text("disposeTerminal", { terminal: id })).toBe(`Closed terminal ${id} "e2e".`);
  expect(((await vs.data("listTerminals")).terminals as { id: string }[]).map((t) => t.id)).not.toContain(id);
}, 240_000);

it("VS Code itself: allowed commands only, a task's exit code, workspace settings within the deny table, decorations, the clipboard", async () => {
  expect(await vs.text("executeVSCodeCommand", { command: "vscode.getEditorLayout" })).toMatch(
    /^Ran vscode\.getEditorLayout; it returned:\n\{.*"groups"/,
  );
  const denied = await vs.mcp.callTool({
    name: "executeVSCodeCommand",
    arguments: { command: "workbench.action.terminal.sendSequence", args: [{ text: "id\n" }] },
  });
  expect(toolErrorCode(denied)).toBe("command_refused");
  // Allowed by the user too, and still refused: an extension installed, a notebook cell run without the user's consent.
  for (const command of ["workbench.extensions.installExtension", "notebook.cell.execute"])
    expect(toolErrorCode(await vs.call("executeVSCodeCommand", { command }))).toBe("command_refused");
  expect((await vs.data("listVSCodeCommands", { filter: "getEditorLayout" })).runnable).toEqual(["vscode.getEditorLayout"]);

  const tasks = (await vs.data("listVSCodeTasks")).tasks as { name: string; source: string }[];
  expect(tasks).toEqual(expect.arrayContaining([expect.objectContaining({ name: "e2e-task", source: "Workspace" })]));
  expect(await vs.text("runVSCodeTask", { name: "e2e-task", waitMs: 120_000 })).toBe('Task "e2e-task" (Workspace) ended with exit code 4.');

  expect(await vs.text("setWorkspaceSetting", { key: "editor.tabSize", value: 3 })).toMatch(
    /^Set editor\.tabSize to 3 in the workspace settings/,
  );
  expect(await vs.text("getWorkspaceSettings", { section: "editor" })).toMatch(/set in this workspace: .*tabSize[\s\S]*"tabSize":3/);
  expect(JSON.parse(await readFile(join(vs.bridge.workspace, ".vscode", "settings.json"), "utf8"))).toMatchObject({ "editor.tabSize": 3 });
  const refused = await vs.mcp.callTool({
    name: "setWorkspaceSetting",
    arguments: { key: "terminal.integrated.env.linux", value: { X: "1" } },
  });
  expect(toolErrorCode(refused)).toBe("permission_denied");
  // Trust, and a program's path: code execution one reload later.
  for (const key of ["security.workspace.trust.enabled", "python.defaultInterpreterPath"])
    expect(toolErrorCode(await vs.call("setWorkspaceSetting", { key, value: "/tmp/x" }))).toBe("permission_denied");

  await vs.text("openFile", { file: "a.ts" });
  expect(
    await vs.text("setEditorDecorations", {
      file: "a.ts",
      id: "e2e",
      decorations: [{ line: 2, style: "warning", message: "doubled", after: "x2" }],
    }),
  ).toMatch(/^Set 1 decoration "e2e" on a\.ts/);
  expect(await vs.text("clearEditorDecorations", { ids: ["e2e"] })).toBe("Cleared 1 decoration set (e2e).");
  // Another MCP session's decoration is drawn in the editor and goes when that session ends.
  const drawn = vs.page.locator('.monaco-editor .view-overlays [class*="ced-"]');
  const other = await vs.connectMcp("decorating");
  expect(
    textOf(
      await other.client.callTool({
        name: "setEditorDecorations",
        arguments: { file: "a.ts", id: "review", decorations: [{ line: 1, style: "error" }] },
      }),
    ),
  ).toMatch(/^Set 1 decoration/);
  await waitUntil("the decoration in the editor", async () => (await drawn.count()) > 0, 30_000);
  await other.transport.terminateSession();
  await other.client.close();
  await waitUntil("the ended session's decoration to go", async () => (await drawn.count()) === 0, 30_000);

  expect(await vs.text("writeClipboard", { text: "from the e2e" })).toBe("Copied 12 characters to the clipboard.");
  expect(await vs.text("readClipboard")).toBe("from the e2e");
}, 180_000);

it("the debugger through VS Code's js-debug: a breakpoint hit, a variable read, an expression, a step, the end", async () => {
  const setResult = await vs.mcp.callTool({
    name: "setDebugBreakpoints",
    arguments: { file: "dbg.js", breakpoints: [{ text: "return sum" }, { line: 8 }] },
  });
  // VS Code answered (route-call.ts names the backend); when not, what the bridge said and logged.
  const answeredBy = (r: typeof setResult) =>
    r._meta?.["claude-ide-bridge/backend"] === "extension" ? "extension" : `${JSON.stringify(r)}\n${vs.bridge.stderr().slice(-4000)}`;
  expect(answeredBy(setResult)).toBe("extension");
  // biome-ignore lint/suspicious/noExplicitAny: the e2e reads tool answers loosely
  const set = setResult.structuredContent as any;
  expect(set.breakpoints).toEqual([
    { file: "dbg.js", line: 3, status: "pending" },
    { file: "dbg.js", line: 8, status: "pending" },
  ]);
  const started = await vs.mcp.callTool({ name: "startDebugging", arguments: { program: "dbg.js", timeoutMs: 60_000 } });
  expect(answeredBy(started)).toBe("extension");
  // biome-ignore lint/suspicious/noExplicitAny: the e2e reads tool answers loosely
  const start = started.structuredContent as any;
  expect(start).toMatchObject({ state: "stopped", sessionId: expect.stringMatching(/^vscode-\d+$/), stop: { reason: "breakpoint" } });
  expect(start.stop.stack[0]).toMatchObject({ name: expect.stringMatching(/\badd$/), file: "dbg.js", line: 3 });
  expect(start.stop.locals).toEqual(expect.arrayContaining([expect.objectContaining({ name: "sum", value: "5" })]));
  expect(start.breakpoints).toEqual(
    expect.arrayContaining([expect.objectContaining({ file: "dbg.js", line: 3 }), expect.objectContaining({ file: "dbg.js", line: 8 })]),
  );
  // Set again while the program runs: js-debug answers for the loaded script. Line 7 (blank) it leaves
  // unbound. Line 8, a comment after the last statement, it verifies, and its own breakpoint locations
  // (which the extension checks a verified line against, test/unit/extension/breakpoint-truth.test.ts)
  // list it: V8's end-of-script return is there, and the program does pause on it.
  const again = await vs.data("setDebugBreakpoints", { file: "dbg.js", breakpoints: [{ text: "return sum" }, { line: 7 }, { line: 8 }] });
  expect(again.breakpoints).toEqual([
    expect.objectContaining({ file: "dbg.js", line: 3, status: "verified" }),
    expect.objectContaining({ file: "dbg.js", line: 7, status: "unverified", message: expect.any(String) }),
    expect.objectContaining({ file: "dbg.js", line: 8, status: "verified" }),
  ]);
  // js-debug takes no function breakpoints (VS Code does not send it any): said, not left pending.
  expect((await vs.data("setDebugBreakpoints", { functions: [{ name: "add" }] })).breakpoints).toEqual([
    { function: "add", status: "unverified", message: expect.stringMatching(/node debugger does not support function breakpoints/) },
  ]);
  expect((await vs.data("setDebugBreakpoints", { functions: [] })).breakpoints).toEqual([]);
  const state = await vs.data("getDebugState", {});
  expect(state).toMatchObject({ sessionId: start.sessionId, state: "stopped" });
  expect(state.stack[0]).toMatchObject({ file: "dbg.js", line: 3 });
  const locals = state.scopes.flatMap((s: { variables: { name: string; value: string }[] }) => s.variables);
  expect(locals).toEqual(expect.arrayContaining([expect.objectContaining({ name: "a", value: "2" })]));
  expect(await vs.data("evaluateInDebugger", { expression: "a * 10 + sum" })).toMatchObject({ result: "25", type: "number" });
  const stepped = await vs.data("debugStepOver", {});
  expect(stepped).toMatchObject({ state: "stopped", stop: { reason: "step" } });
  expect(stepped.stop.stack[0].line).not.toBe(3);
  // Cleared, so the run goes to the end (js-debug bound line 8 to the script's end, where it would stop).
  expect((await vs.data("setDebugBreakpoints", { file: "dbg.js", breakpoints: [] })).breakpoints).toEqual([]);
  const ended = await vs.data("debugContinue", { timeoutMs: 60_000 });
  expect(ended).toMatchObject({ sessionId: start.sessionId, state: "ended" });
  expect(await vs.text("getDebugOutput", { sessionId: start.sessionId })).toMatch(/total=5/);
  const caps = await vs.data("getToolCapabilities");
  expect(caps.fallback).not.toContain("startDebugging");
}, 240_000);

it("a notebook cell run in a kernel: the user refuses, then agrees in VS Code's dialog; text, image and error outputs; a cell that outlasts the wait; one waiting for a kernel to be picked", async () => {
  // The dialog shows the cell's code; Cancel refuses, and nothing runs.
  const refused = vs.call("runNotebookCell", { file: "run.ipynb", cell: 1 });
  expect(await clickInDialog("Cancel", refused)).toContain('print("sum", 2 + 3)');
  const no = await refused;
  expect(toolErrorCode(no)).toBe("permission_denied");
  expect(textOf(no)).toMatch(/The user did not agree to run cell 1 of run\.ipynb/);
  expect(await vs.text("getNotebookOutput", { file: "run.ipynb", cell: 1 })).toMatch(
    /^run\.ipynb \[1\] code python · 0 outputs\n\(no outputs\)$/,
  );

  const agreed = vs.call("runNotebookCell", { file: "run.ipynb", cell: 1 });
  await clickInDialog("Run", agreed);
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
  await clickInDialog("Run", waiting);
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
  await clickInDialog("Run", picking);
  expect(textOf(await picking)).toMatch(
    /^pick\.ipynb \[0\] code python · 0 outputs\nNOT STARTED within the wait \(no output or execution number yet\): VS Code is likely waiting for a kernel/,
  );
  await vs.page.keyboard.press("Escape");
}, 240_000);

it("the extension host killed: tools fall back or fail within a second; restarted, everything is back", async () => {
  const host = vs.extensionHostPid();
  expect(host, "the extension host's process").toBeDefined();
  process.kill(host as number, "SIGKILL");
  await waitUntil("the bridge to see the extension gone", async () => (await vs.health()).extension?.state === "disconnected", 5_000);
  let t = Date.now();
  const selection = await vs.mcp.callTool({ name: "getCurrentSelection", arguments: {} });
  vs.timings.requiredToolFailureMs = Date.now() - t;
  expect(selection.isError).toBe(true);
  expect(textOf(selection)).toMatch(/not connected/);
  expect(toolErrorCode(selection)).toBe("extension_unavailable");
  t = Date.now();
  const folders = await vs.mcp.callTool({ name: "getWorkspaceFolders", arguments: {} });
  vs.timings.fallbackToolMs = Date.now() - t;
  expect(folders._meta).toEqual({ "claude-ide-bridge/backend": "headless" });
  expect(vs.timings.requiredToolFailureMs).toBeLessThan(1_000);
  expect(vs.timings.fallbackToolMs).toBeLessThan(1_000);
  // Without the extension: getToolCapabilities and doctor say so, and what then works headless.
  const caps = await vs.data("getToolCapabilities");
  expect(caps.extensionConnected).toBe(false);
  expect(caps.fallback).toEqual(expect.arrayContaining(["getWorkspaceFolders", "startDebugging"]));
  expect(caps.unavailable.flatMap((u: { tools: string[] }) => u.tools)).toEqual(
    expect.arrayContaining(["getCurrentSelection", "createTerminal", "runNotebookCell"]),
  );
  expect(vs.doctorExtensionChecks()).toEqual(
    expect.arrayContaining([
      { area: "extension", status: "ok", summary: "installed in code-server" },
      expect.objectContaining({ status: "info", summary: expect.stringMatching(/^not connected to the bridge \(disconnected\)/) }),
    ]),
  );

  // The window reloaded (as a user does after "Extension host terminated unexpectedly"): a new
  // extension host, whose extension finds the bridge again and reconnects by itself.
  const restarted = Date.now();
  await vs.page.reload({ waitUntil: "domcontentloaded", timeout: CONNECT_TIMEOUT_MS });
  await vs.shotOnFailure("restart-failure", () =>
    waitUntil("the extension to reconnect", async () => (await vs.health()).extension?.state === "connected", CONNECT_TIMEOUT_MS),
  );
  vs.timings.restartToReconnectedMs = Date.now() - restarted;
  const back = await vs.mcp.callTool({ name: "getWorkspaceFolders", arguments: {} });
  expect(back._meta).toEqual({ "claude-ide-bridge/backend": "extension" });
  expect(textOf(back)).toContain(vs.bridge.workspace);
}, 240_000);

/**
 * Clicks `button` in VS Code's modal dialog once it shows; returns the dialog's text. A call that
 * answers before any dialog showed fails the test with its answer.
 */
async function clickInDialog(button: string, call: ReturnType<VSCodeE2E["call"]>): Promise<string> {
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
