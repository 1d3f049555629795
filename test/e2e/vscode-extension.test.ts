// The extension in a REAL VS Code: code-server 4.100.3 (VS Code 1.100.3) with Debian's headless
// Chromium driven by playwright-core, all installed offline by scripts/vscode-e2e-setup.sh (cached)
// and extension/'s own npm install (shared reference: vscode-e2e.md). The bridge runs as a
// process; `claude-ide-bridge install-extension code-server` installs the packaged .vsix into a
// fresh code-server; the extension finds the bridge from its lock file and connects. Then, through
// an MCP client of the bridge and Claude Code's IDE link on the lock file's socket: VS Code's
// diagnostics, goToDefinition, findReferences, hover and outline through VS Code, an unsaved buffer, a selection made in the editor
// (as a tool answer and as selection_changed), getToolCapabilities, doctor (installed, connected),
// openDiff accepted and rejected through the UI (a screenshot kept in test-results/), executeCode's
// isError without a notebook kernel, getDiagnostics of a file no editor shows (VS Code checks it in a
// background tab), a notebook's cells and outputs (runNotebookCell's and captureScreenshot's honest
// isError), the debugger through js-debug (breakpoints on lines without code, function breakpoints); then the
// extension host is killed (tools fall back or fail within a second) and restarted (everything
// back). The wall time and code-server's start -> "connected" go to
// test-results/vscode-e2e-timings.json.
import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { cp, mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, expect, it } from "vitest";
import { WebSocket } from "ws";
import { BRIDGE_BIN, REPO_ROOT, startBridgeProcess, type BridgeProcess } from "../helpers/spawn-bridge.ts";
import { toolErrorCode } from "../helpers/tool-error.ts";

// playwright-core is a devDependency of extension/ (beside vsce), not of the bridge: what is used of it.
interface Locator {
  first(): Locator;
  click(): Promise<void>;
  waitFor(opts: { state: "visible"; timeout?: number }): Promise<void>;
}
interface Page {
  goto(url: string, opts: { waitUntil: "domcontentloaded"; timeout: number }): Promise<unknown>;
  reload(opts: { waitUntil: "domcontentloaded"; timeout: number }): Promise<unknown>;
  waitForSelector(selector: string, opts: { timeout: number }): Promise<unknown>;
  locator(selector: string): Locator;
  screenshot(opts: { path: string }): Promise<unknown>;
  close(opts: { runBeforeUnload: boolean }): Promise<void>;
  keyboard: { press(key: string): Promise<void>; type(text: string): Promise<void> };
}
interface BrowserContext {
  pages(): Page[];
  newPage(): Promise<Page>;
  close(): Promise<void>;
}
interface Playwright {
  chromium: { launchPersistentContext(dir: string, opts: Record<string, unknown>): Promise<BrowserContext> };
}

const EXTENSION_DIR = join(REPO_ROOT, "extension");
const ARTIFACTS = join(REPO_ROOT, "test-results");
const SETUP_TIMEOUT_MS = 600_000;
const CONNECT_TIMEOUT_MS = 240_000;

let work: string;
let bridge: BridgeProcess;
let codeServer: ChildProcess | undefined;
let context: BrowserContext | undefined;
let page: Page;
let mcp: Client;
let ide: IdeLinkClient;
let env: NodeJS.ProcessEnv;
const started = Date.now();
const timings: Record<string, number> = {};

/** A 1x1 PNG, as a plot's output in a saved notebook. */
const PNG_BASE64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

const FILES: Record<string, string> = {
  "tsconfig.json": JSON.stringify({ compilerOptions: { strict: true, noEmit: true, target: "ES2022" }, include: ["*.ts"] }),
  "a.ts": "export function foo(x: number): number {\n  return x * 2;\n}\n",
  "b.ts": 'import { foo } from "./a";\nconst s: string = foo(1);\nexport const label = "b";\n',
  // For the protocol-1.3 tools: a function to rename and call, a use missing its import (a quick
  // fix), a file to format.
  "c.ts": 'export function twice(n: number, label: string): string {\n  return label + n * 2;\n}\nexport const r = twice(2, "x");\n',
  "e.ts": 'export const t = twice(3, "y");\n',
  "f.ts": "export const  y  =  1 ;\n",
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
  // A file no editor shows: getDiagnostics has VS Code check it in a background tab.
  "g.ts": 'export const g: number = "g";\n',
  // A notebook as Jupyter saves one: markdown, printed output, an error with a coloured traceback, a plot.
  "nb.ipynb": notebook(),
};

beforeAll(async () => {
  const installDir = execFileSync("bash", [join(REPO_ROOT, "scripts", "vscode-e2e-setup.sh")], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  })
    .trim()
    .split("\n")
    .at(-1) as string;
  if (!existsSync(join(EXTENSION_DIR, "node_modules", "@vscode", "vsce"))) run("npm", ["ci", "--no-audit", "--no-fund"], EXTENSION_DIR);
  const packageStart = Date.now();
  run("npm", ["run", "package"], EXTENSION_DIR);
  timings.packageVsixMs = Date.now() - packageStart;

  await mkdir(ARTIFACTS, { recursive: true });
  work = await realpath(await mkdtemp(join(tmpdir(), "vscode-e2e-")));
  const workspace = join(work, "ws");
  await mkdir(join(workspace, ".vscode"), { recursive: true });
  for (const [name, text] of Object.entries(FILES)) await writeFile(join(workspace, name), text);
  // Two VS Code commands allowed: one that answers with data, and one the deny list still refuses.
  bridge = await startBridgeProcess({
    workspace,
    args: [
      "--verbose",
      "--vscode-allow-command",
      "vscode.getEditorLayout",
      "--vscode-allow-command",
      "workbench.action.terminal.sendSequence",
      // runVSCodeTask runs only the tasks the user named.
      "--vscode-allow-task",
      "e2e-task",
    ],
  });

  // A fresh code-server: its own user data, extensions and config (its default directories under
  // this XDG_DATA_HOME); the packaged .vsix installed by the bridge's own install-extension, which
  // finds code-server on PATH as a user's shell would.
  const bin = join(work, "bin");
  await mkdir(bin);
  await symlink(join(installDir, "node_modules", ".bin", "code-server"), join(bin, "code-server"));
  env = {
    ...process.env,
    PATH: `${bin}:${process.env.PATH ?? ""}`,
    XDG_CONFIG_HOME: join(work, "xdg"),
    XDG_DATA_HOME: join(work, "data"),
    CLAUDE_CONFIG_DIR: bridge.configDir,
    // A user's secret in VS Code's environment: terminals the bridge creates must not have it.
    E2E_API_TOKEN: "e2e-secret-value",
  };
  const installed = run(process.execPath, [BRIDGE_BIN, "install-extension", "code-server"], workspace, env);
  expect(installed).toMatch(/^Installed claude-ide-bridge\.claude-ide-bridge-vscode with .*code-server\./);
  const userDir = join(work, "data", "code-server", "User");
  await mkdir(userDir, { recursive: true });
  await writeFile(
    join(userDir, "settings.json"),
    JSON.stringify({
      "security.workspace.trust.enabled": false,
      "workbench.startupEditor": "none",
      "telemetry.telemetryLevel": "off",
      "extensions.autoCheckUpdates": false,
      "extensions.autoUpdate": false,
      "update.mode": "none",
      "git.enabled": false,
      "typescript.disableAutomaticTypeAcquisition": true,
      "npm.fetchOnlinePackageInfo": false,
      "workbench.enableExperiments": false,
      // bash has VS Code's shell integration (exit codes and output for the terminal tools).
      "terminal.integrated.defaultProfile.linux": "bash",
    }),
  );
  const port = await freePort();
  const csStart = Date.now();
  codeServer = spawn(
    "code-server",
    ["--auth", "none", "--bind-addr", `127.0.0.1:${port}`, "--disable-telemetry", "--disable-update-check", "--disable-workspace-trust"],
    { env, detached: true, stdio: ["ignore", "ignore", "ignore"] },
  );
  await waitFor(
    "code-server /healthz",
    async () => (await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined))?.ok === true,
    30_000,
  );

  const pw = createRequire(join(EXTENSION_DIR, "package.json"))("playwright-core") as Playwright;
  context = await pw.chromium.launchPersistentContext(join(work, "profile"), {
    executablePath: "/usr/bin/chromium",
    headless: true,
    viewport: { width: 1400, height: 900 },
    // VS Code in a browser reaches the clipboard through the page (readClipboard, writeClipboard).
    permissions: ["clipboard-read", "clipboard-write"],
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  page = context.pages()[0] ?? (await context.newPage());
  await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}`, {
    waitUntil: "domcontentloaded",
    timeout: CONNECT_TIMEOUT_MS,
  });
  await page.waitForSelector(".monaco-workbench", { timeout: CONNECT_TIMEOUT_MS });
  await waitFor("the extension to connect", async () => (await health()).extension?.state === "connected", CONNECT_TIMEOUT_MS);
  timings.codeServerStartToConnectedMs = Date.now() - csStart;

  mcp = new Client({ name: "e2e-vscode", version: "0.0.0" });
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL(bridge.mcpUrl), { requestInit: { headers: { Authorization: `Bearer ${bridge.token}` } } }),
  );
  ide = await IdeLinkClient.open(bridge);
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
  ide?.close();
  await mcp?.close().catch(() => undefined);
  for (const p of context?.pages() ?? []) await p.close({ runBeforeUnload: true }).catch(() => undefined);
  // A graceful close lets code-server end the extension host at once (vscode-e2e.md section 7).
  await new Promise((r) => setTimeout(r, 1_500));
  await context?.close().catch(() => undefined);
  if (codeServer?.pid !== undefined) killGroup(codeServer.pid);
  await bridge?.stop();
  // KEEP_VSCODE_E2E=1 keeps code-server's logs (the extension's output channel among them).
  // KEEP_VSCODE_E2E=1 also copies code-server's logs (the extension's output channel among them) beside the screenshots.
  if (work !== undefined && process.env.KEEP_VSCODE_E2E !== undefined)
    await cp(join(work, "data", "code-server", "logs"), join(ARTIFACTS, "vscode-e2e-logs"), { recursive: true }).catch(() => undefined);
  if (work !== undefined && process.env.KEEP_VSCODE_E2E === undefined) await rm(work, { recursive: true, force: true });
  else console.log(`kept ${work}`);
  timings.wallMs = Date.now() - started;
  // vitest hides a passing test's console; the figures are kept beside the screenshots.
  await writeFile(join(ARTIFACTS, "vscode-e2e-timings.json"), `${JSON.stringify(timings, null, 2)}\n`).catch(() => undefined);
  console.log(`vscode e2e timings: ${JSON.stringify(timings)}`);
}, 60_000);

it("VS Code's diagnostics, goToDefinition, an unsaved buffer and the selection reach the bridge's tools", async () => {
  expect(await text("openFile", { file: "b.ts", line: 2 })).toMatch(/^Opened b\.ts at line 2 in VS Code \(typescript, 4 lines\)/);
  // TypeScript reports syntax first and type errors a moment later, and may clear and report them
  // again while its project loads (the workspace's package.json): asked until the type error is
  // there, and that answer is the one checked.
  // biome-ignore lint/suspicious/noExplicitAny: the e2e reads tool answers loosely
  let diagnostics: any;
  await waitFor(
    "VS Code's TypeScript to report b.ts's type error",
    async () => {
      diagnostics = await data("getDiagnostics", { file: "b.ts" });
      // Until VS Code has checked the file, the bridge's own server answers for it (named in sources).
      return diagnostics.sources.includes("VS Code (ts)") && diagnostics.diagnostics.some((d: { code?: string }) => d.code === "2322");
    },
    120_000,
  );
  expect(diagnostics.diagnostics).toEqual(
    expect.arrayContaining([expect.objectContaining({ file: "b.ts", line: 2, code: "2322", severity: "error", source: "ts" })]),
  );
  expect(diagnostics.sources).toEqual(["VS Code (ts)"]);

  const definition = await mcp.callTool({ name: "goToDefinition", arguments: { file: "b.ts", line: 2, symbol: "foo" } });
  expect(definition._meta).toEqual({ "claude-ide-bridge/backend": "extension" });
  expect(textOf(definition)).toMatch(/1 definition of `foo` \(b\.ts:2:\d+, VS Code\):\na\.ts:1:17 {2}export function foo/);

  // The rest of code navigation and intelligence through VS Code's providers, in the headless shapes.
  const references = await mcp.callTool({ name: "findReferences", arguments: { file: "a.ts", line: 1, symbol: "foo" } });
  expect(references._meta).toEqual({ "claude-ide-bridge/backend": "extension" });
  expect(textOf(references)).toMatch(/^3 references to `foo` in 2 files \(VS Code, complete\):\na\.ts:1:17 .*\nb\.ts:1:10 .*\nb\.ts:2:19 /);
  expect(await text("getHover", { file: "a.ts", line: 1, symbol: "foo" })).toMatch(/function foo\(x: number\): number/);
  expect(await text("getTypeSignature", { file: "a.ts", line: 1, symbol: "foo" })).toMatch(/function foo\(x: number\): number/);
  // TypeScript's outline names a const a variable in VS Code.
  expect(await text("getDocumentSymbols", { file: "b.ts" })).toBe("b.ts (4 lines, VS Code):\ns variable :2\nlabel variable :3");

  // Typed into the editor, not saved: the bridge sees VS Code's buffer.
  await page.locator(".monaco-editor .view-lines").first().click();
  await page.keyboard.press("Control+End");
  await page.keyboard.type("// unsaved edit");
  await waitFor(
    "VS Code to report the edit",
    async () => (await text("getBufferContent", { filePath: "b.ts" })).includes("// unsaved edit"),
    10_000,
  );
  expect(await text("getBufferContent", { filePath: "b.ts" })).toMatch(
    /\/\/ unsaved edit\n\[b\.ts as open in VS Code, with UNSAVED changes/,
  );
  expect(await data("checkDocumentDirty", { file: "b.ts" })).toEqual({ open: true, dirty: true });

  // A selection made with the keyboard in the editor: getCurrentSelection, and selection_changed on the IDE link.
  await page.keyboard.press("Control+Home");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Home");
  await page.keyboard.press("Shift+End");
  const line2 = "const s: string = foo(1);";
  await waitFor("the selection", async () => (await data("getCurrentSelection")).selection?.text === line2, 10_000);
  expect((await data("getCurrentSelection")).selection).toMatchObject({
    file: "b.ts",
    text: line2,
    start: { line: 2, column: 1 },
    end: { line: 2 },
  });
  const notified = await ide.waitFor((m) => m.method === "selection_changed" && (m.params as { text?: string }).text === line2, 10_000);
  expect(notified.params).toMatchObject({
    filePath: join(bridge.workspace, "b.ts"),
    selection: { start: { line: 1, character: 0 }, isEmpty: false },
  });

  const caps = await data("getToolCapabilities");
  expect(caps.extensionConnected).toBe(true);
  expect(caps.extensionProtocol).toBe("1.5.0");
  expect(caps.fallback).toEqual([]);
  expect(caps.unavailable.map((u: { name: string }) => u.name)).not.toContain("getCurrentSelection");
}, 180_000);

it("doctor finds the extension installed in code-server and connected to the bridge", async () => {
  const out = spawnSync(process.execPath, [BRIDGE_BIN, "doctor", "--json"], {
    cwd: bridge.workspace,
    env,
    encoding: "utf8",
    timeout: 120_000,
  });
  const report = JSON.parse(out.stdout) as { checks: { area: string; status: string; summary: string }[] };
  const extension = report.checks.filter((c) => c.area === "extension");
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
  await waitFor(
    "VS Code's TypeScript to check g.ts",
    async () => {
      diagnostics = await data("getDiagnostics", { file: "g.ts" });
      return diagnostics.sources[0] === "VS Code (ts)" && diagnostics.skipped.length === 0;
    },
    120_000,
  );
  expect(diagnostics.diagnostics).toEqual([
    expect.objectContaining({ file: "g.ts", line: 1, code: "2322", severity: "error", source: "ts" }),
  ]);
  expect(diagnostics.sources).toEqual(["VS Code (ts)"]);
  const editors = (await data("getOpenEditors")).editors as { file: string }[];
  expect(editors.map((e) => e.file)).not.toContain("g.ts");
}, 180_000);

it("notebooks through VS Code: cells and outputs without a kernel; running a cell names the kernel to install; no screenshot", async () => {
  const cells = await text("getNotebookCells", { file: "nb.ipynb" });
  expect(cells).toMatch(/^nb\.ipynb \(jupyter-notebook, 4 cells\):\n\n\[0\] markdown\n# Sales\nTotals by month\.\n\n/);
  expect(cells).toMatch(/\n\[1\] code python · ran \[1\] · (succeeded · )?1 output\nprint\('total', 42\)\n/);
  expect(await text("getNotebookOutput", { file: "nb.ipynb", cell: 1 })).toMatch(
    /^nb\.ipynb \[1\] code python · ran \[1\] · (succeeded · )?1 output\n--- output 1: stdout\ntotal 42$/,
  );
  const error = await text("getNotebookOutput", { file: "nb.ipynb", cell: 2 });
  expect(error).toMatch(/\n--- output 1: error\nZeroDivisionError: division by zero\nZeroDivisionError +Traceback/);
  expect(error).not.toContain("\u001b");
  const plot = await text("getNotebookOutput", { file: "nb.ipynb", cell: 3 });
  const pngBytes = Buffer.from(PNG_BASE64, "base64").length;
  expect(plot).toMatch(
    new RegExp(`\n--- output 1: text/plain; image/png \\(${pngBytes} bytes, not shown\\)\n<Figure size 640x480 with 1 Axes>$`),
  );
  const missing = await mcp.callTool({ name: "getNotebookOutput", arguments: { file: "nb.ipynb", cell: 9 } });
  expect(toolErrorCode(missing)).toBe("not_found");

  // code-server has no kernel offline (no Jupyter extension): said before anything is shown to the user.
  const run = await mcp.callTool({ name: "runNotebookCell", arguments: { file: "nb.ipynb", cell: 1 } });
  expect(toolErrorCode(run)).toBe("not_supported");
  expect(textOf(run)).toMatch(/no installed VS Code extension provides kernels for jupyter-notebook notebooks[\s\S]*ms-toolsai\.jupyter/);

  const shot = await mcp.callTool({ name: "captureScreenshot", arguments: {} });
  expect(toolErrorCode(shot)).toBe("not_supported");
  expect(textOf(shot)).toMatch(/^The connected .+ does not allow it: VS Code's extension API has no screen capture/);
}, 180_000);

it("openDiff through Claude Code's IDE link: shown as a VS Code diff, accepted and rejected in the UI", async () => {
  const proposal = "export function foo(x: number): number {\n  return x * 3;\n}\n";
  const tab = "✻ [Claude Code] a.ts (e2e) ⧉";
  const accepted = ide.call("openDiff", {
    old_file_path: join(bridge.workspace, "a.ts"),
    new_file_path: join(bridge.workspace, "a.ts"),
    new_file_contents: proposal,
    tab_name: tab,
  });
  const accept = page.locator('.editor-actions [aria-label^="Accept Claude\'s Change"]').first();
  await shotOnFailure("open-diff-failure", () => accept.waitFor({ state: "visible", timeout: 60_000 }));
  await page.locator(".monaco-diff-editor").first().waitFor({ state: "visible" });
  await page.screenshot({ path: join(ARTIFACTS, "vscode-open-diff.png") });
  await accept.click();
  expect((await accepted).result).toMatchObject({
    content: [
      { type: "text", text: "FILE_SAVED" },
      { type: "text", text: proposal },
    ],
  });
  const rejected = ide.call("openDiff", {
    old_file_path: join(bridge.workspace, "a.ts"),
    new_file_path: join(bridge.workspace, "a.ts"),
    new_file_contents: "x\n",
    tab_name: "second",
  });
  const reject = page.locator('.editor-actions [aria-label^="Reject Claude\'s Change"]').first();
  await shotOnFailure("reject-diff-failure", () => reject.waitFor({ state: "visible", timeout: 60_000 }));
  await reject.click();
  expect((await rejected).result).toMatchObject({
    content: [
      { type: "text", text: "DIFF_REJECTED" },
      { type: "text", text: "second" },
    ],
  });
  expect((await ide.call("closeAllDiffTabs", {})).result).toMatchObject({ content: [{ type: "text", text: "CLOSED_0_DIFF_TABS" }] });

  // No Jupyter kernel in this VS Code (its Jupyter extension cannot be installed offline): executeCode says so.
  const executed = (await ide.call("executeCode", { code: "print(1)" })).result as { isError?: boolean; content: { text: string }[] };
  expect(executed.isError).toBe(true);
  expect(executed.content[0]?.text).toMatch(/No Jupyter notebook kernel/);
}, 180_000);

it("terminals: a command's exit code and output through shell integration, a dev server waited on, no user secret inside", async () => {
  const made = await data("createTerminal", { name: "e2e", env: { GREETING: "there" } });
  expect(made).toMatchObject({ name: "e2e", createdByBridge: true });
  const id = made.id as string;
  // bash starts and VS Code's shell integration reports itself a moment later (seconds on a loaded machine).
  const integrated = async (terminalId: string) =>
    ((await data("listTerminals")).terminals as { id: string; shellIntegration: boolean }[]).some(
      (t) => t.id === terminalId && t.shellIntegration,
    );
  await waitFor("shell integration in the new terminal", () => integrated(id), 120_000);
  const hello = await text("sendTerminalCommand", { terminal: id, command: "npm", args: ["run", "hello"], waitMs: 60_000 });
  expect(hello).toMatch(new RegExp(`^\\$ npm run hello\\nexit 3 · VS Code terminal ${id} "e2e"\\n`));
  expect(hello).toContain("hello-there token=absent");
  // runInTerminal with VS Code connected: once, in the terminal named, with the exit code.
  const run = await mcp.callTool({ name: "runInTerminal", arguments: { command: "npm run hello", name: "e2e" } });
  expect(run._meta).toEqual({ "claude-ide-bridge/backend": "extension" });
  expect(textOf(run)).toMatch(new RegExp(`^\\$ npm run hello\\nexit 3 · VS Code terminal ${id} "e2e"\\n[\\s\\S]*hello-there token=absent`));

  // A dev server: started without waiting, its "ready" line waited for, its output read later.
  expect(await text("sendTerminalCommand", { terminal: id, command: "npm", args: ["run", "serve"], waitMs: 0 })).toMatch(
    /still running in VS Code terminal/,
  );
  const ready = await text("waitForTerminalOutput", { terminal: id, pattern: "ready on port \\d+", timeoutMs: 60_000 });
  expect(ready).toMatch(/^Matched in terminal .*\n.*ready on port 4321/);
  // The server still runs there: another command is not typed into it.
  const busy = await mcp.callTool({ name: "sendTerminalCommand", arguments: { terminal: id, command: "npm", args: ["run", "hello"] } });
  expect(toolErrorCode(busy)).toBe("tool_failed");
  expect(textOf(busy)).toMatch(/is still running a command/);
  expect(await text("getTerminalOutput", { terminal: "e2e" })).toMatch(
    /hello-there token=absent[\s\S]*hello-there token=absent[\s\S]*ready on port 4321/,
  );
  const listed = (await data("listTerminals")).terminals as { id: string; shellIntegration: boolean; createdByBridge: boolean }[];
  expect(listed).toEqual(expect.arrayContaining([expect.objectContaining({ id, shellIntegration: true, createdByBridge: true })]));

  expect(await text("disposeTerminal", { terminal: id })).toBe(`Closed terminal ${id} "e2e".`);
  expect(((await data("listTerminals")).terminals as { id: string }[]).map((t) => t.id)).not.toContain(id);
}, 240_000);

it("VS Code itself: allowed commands only, a task's exit code, workspace settings within the deny table, decorations, the clipboard", async () => {
  expect(await text("executeVSCodeCommand", { command: "vscode.getEditorLayout" })).toMatch(
    /^Ran vscode\.getEditorLayout; it returned:\n\{.*"groups"/,
  );
  const denied = await mcp.callTool({
    name: "executeVSCodeCommand",
    arguments: { command: "workbench.action.terminal.sendSequence", args: [{ text: "id\n" }] },
  });
  expect(toolErrorCode(denied)).toBe("command_refused");
  expect((await data("listVSCodeCommands", { filter: "getEditorLayout" })).runnable).toEqual(["vscode.getEditorLayout"]);

  const tasks = (await data("listVSCodeTasks")).tasks as { name: string; source: string }[];
  expect(tasks).toEqual(expect.arrayContaining([expect.objectContaining({ name: "e2e-task", source: "Workspace" })]));
  expect(await text("runVSCodeTask", { name: "e2e-task", waitMs: 120_000 })).toBe('Task "e2e-task" (Workspace) ended with exit code 4.');

  expect(await text("setWorkspaceSetting", { key: "editor.tabSize", value: 3 })).toMatch(
    /^Set editor\.tabSize to 3 in the workspace settings/,
  );
  expect(await text("getWorkspaceSettings", { section: "editor" })).toMatch(/set in this workspace: .*tabSize[\s\S]*"tabSize":3/);
  expect(JSON.parse(await readFile(join(bridge.workspace, ".vscode", "settings.json"), "utf8"))).toMatchObject({ "editor.tabSize": 3 });
  const refused = await mcp.callTool({
    name: "setWorkspaceSetting",
    arguments: { key: "terminal.integrated.env.linux", value: { X: "1" } },
  });
  expect(toolErrorCode(refused)).toBe("permission_denied");

  await text("openFile", { file: "a.ts" });
  expect(
    await text("setEditorDecorations", {
      file: "a.ts",
      id: "e2e",
      decorations: [{ line: 2, style: "warning", message: "doubled", after: "x2" }],
    }),
  ).toMatch(/^Set 1 decoration "e2e" on a\.ts/);
  expect(await text("clearEditorDecorations", { ids: ["e2e"] })).toBe("Cleared 1 decoration set (e2e).");

  expect(await text("writeClipboard", { text: "from the e2e" })).toBe("Copied 12 characters to the clipboard.");
  expect(await text("readClipboard")).toBe("from the e2e");
}, 180_000);

it("the debugger through VS Code's js-debug: a breakpoint hit, a variable read, an expression, a step, the end", async () => {
  const setResult = await mcp.callTool({
    name: "setDebugBreakpoints",
    arguments: { file: "dbg.js", breakpoints: [{ text: "return sum" }, { line: 8 }] },
  });
  // VS Code answered (route-call.ts names the backend); when not, what the bridge said and logged.
  const answeredBy = (r: typeof setResult) =>
    r._meta?.["claude-ide-bridge/backend"] === "extension" ? "extension" : `${JSON.stringify(r)}\n${bridge.stderr().slice(-4000)}`;
  expect(answeredBy(setResult)).toBe("extension");
  // biome-ignore lint/suspicious/noExplicitAny: the e2e reads tool answers loosely
  const set = setResult.structuredContent as any;
  expect(set.breakpoints).toEqual([
    { file: "dbg.js", line: 3, status: "pending" },
    { file: "dbg.js", line: 8, status: "pending" },
  ]);
  const started = await mcp.callTool({ name: "startDebugging", arguments: { program: "dbg.js", timeoutMs: 60_000 } });
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
  const again = await data("setDebugBreakpoints", { file: "dbg.js", breakpoints: [{ text: "return sum" }, { line: 7 }, { line: 8 }] });
  expect(again.breakpoints).toEqual([
    expect.objectContaining({ file: "dbg.js", line: 3, status: "verified" }),
    expect.objectContaining({ file: "dbg.js", line: 7, status: "unverified", message: expect.any(String) }),
    expect.objectContaining({ file: "dbg.js", line: 8, status: "verified" }),
  ]);
  // js-debug takes no function breakpoints (VS Code does not send it any): said, not left pending.
  expect((await data("setDebugBreakpoints", { functions: [{ name: "add" }] })).breakpoints).toEqual([
    { function: "add", status: "unverified", message: expect.stringMatching(/node debugger does not support function breakpoints/) },
  ]);
  expect((await data("setDebugBreakpoints", { functions: [] })).breakpoints).toEqual([]);
  const state = await data("getDebugState", {});
  expect(state).toMatchObject({ sessionId: start.sessionId, state: "stopped" });
  expect(state.stack[0]).toMatchObject({ file: "dbg.js", line: 3 });
  const locals = state.scopes.flatMap((s: { variables: { name: string; value: string }[] }) => s.variables);
  expect(locals).toEqual(expect.arrayContaining([expect.objectContaining({ name: "a", value: "2" })]));
  expect(await data("evaluateInDebugger", { expression: "a * 10 + sum" })).toMatchObject({ result: "25", type: "number" });
  const stepped = await data("debugStepOver", {});
  expect(stepped).toMatchObject({ state: "stopped", stop: { reason: "step" } });
  expect(stepped.stop.stack[0].line).not.toBe(3);
  // Cleared, so the run goes to the end (js-debug bound line 8 to the script's end, where it would stop).
  expect((await data("setDebugBreakpoints", { file: "dbg.js", breakpoints: [] })).breakpoints).toEqual([]);
  const ended = await data("debugContinue", { timeoutMs: 60_000 });
  expect(ended).toMatchObject({ sessionId: start.sessionId, state: "ended" });
  expect(await text("getDebugOutput", { sessionId: start.sessionId })).toMatch(/total=5/);
  const caps = await data("getToolCapabilities");
  expect(caps.fallback).not.toContain("startDebugging");
}, 240_000);

it("protocol 1.3 through VS Code: signature help, a quick fix previewed and applied by the bridge, rename preview, formatting", async () => {
  const callLine = 'export const r = twice(2, "x");';
  const help = await mcp.callTool({ name: "signatureHelp", arguments: { file: "c.ts", line: 4, column: callLine.indexOf('"x"') + 1 } });
  expect(help._meta).toEqual({ "claude-ide-bridge/backend": "extension" });
  expect(textOf(help)).toMatch(/^\* twice\(n: number, label: string\): string\n {6}n: number\n {4}> label: string[\s\S]*\(VS Code\)$/);

  // e.ts uses twice without importing it: VS Code's TypeScript offers the import, the bridge writes it.
  await text("openFile", { file: "e.ts" });
  await waitFor(
    "VS Code's TypeScript to report e.ts's missing name",
    async () =>
      (await data("getDiagnostics", { file: "e.ts" })).diagnostics.some(
        (d: { line: number; severity: string }) => d.line === 1 && d.severity === "error",
      ),
    120_000,
  );
  const actions = await mcp.callTool({ name: "getCodeActions", arguments: { file: "e.ts", startLine: 1 } });
  expect(actions._meta).toEqual({ "claude-ide-bridge/backend": "extension" });
  expect(textOf(actions)).toMatch(/code actions? for e\.ts lines 1-1 \(VS Code\):\n[\s\S]*Add import from "\.\/c"/);
  const preview = await text("previewCodeAction", { file: "e.ts", startLine: 1, title: 'Add import from "./c"' });
  expect(preview).toMatch(/^Would apply "Add import from "\.\/c"": 1 file \(dry run; nothing written; computed by VS Code\)\./);
  expect(preview).toMatch(/\+import \{ twice \} from "\.\/c";/);
  const digest = /Preview ([0-9a-f]{8})/.exec(preview)?.[1];
  expect(await readFile(join(bridge.workspace, "e.ts"), "utf8")).toBe(FILES["e.ts"]);
  const applied = await text("applyCodeAction", { file: "e.ts", startLine: 1, title: 'Add import from "./c"', preview: digest });
  expect(applied).toMatch(/^Applied "Add import from "\.\/c"": 1 file written together \(computed by VS Code\)\./);
  expect(await readFile(join(bridge.workspace, "e.ts"), "utf8")).toMatch(
    /^import \{ twice \} from "\.\/c";\n\n?export const t = twice\(3, "y"\);\n$/,
  );

  expect(await text("prepareRename", { file: "c.ts", line: 1, symbol: "twice" })).toBe(
    '`twice` can be renamed: c.ts:1:17-1:22 ("twice") (VS Code).',
  );
  // VS Code sees e.ts's new import once it has reloaded the file: the rename then reaches both files.
  let rename = "";
  await waitFor(
    "VS Code's rename to reach e.ts",
    async () => {
      rename = await text("renameSymbol", { file: "c.ts", line: 1, symbol: "twice", newName: "double", dryRun: true });
      return rename.includes("2 files");
    },
    60_000,
  );
  expect(rename).toMatch(/^Would rename `twice` to `double`: 2 files \(dry run; nothing written; computed by VS Code\)\./);
  expect(rename).toMatch(/\+export function double\(n: number[\s\S]*\+import \{ double \} from "\.\/c";/);
  expect(await readFile(join(bridge.workspace, "c.ts"), "utf8")).toBe(FILES["c.ts"]);

  const formatted = await mcp.callTool({ name: "formatDocument", arguments: { file: "f.ts" } });
  expect(formatted._meta).toEqual({ "claude-ide-bridge/backend": "extension" });
  expect(textOf(formatted)).toMatch(/^Formatted f\.ts with VS Code's formatter\./);
  expect(await readFile(join(bridge.workspace, "f.ts"), "utf8")).toBe("export const y = 1;\n");
}, 240_000);

it("the extension host killed: tools fall back or fail within a second; restarted, everything is back", async () => {
  const host = extensionHostPid();
  expect(host, "the extension host's process").toBeDefined();
  process.kill(host as number, "SIGKILL");
  await waitFor("the bridge to see the extension gone", async () => (await health()).extension?.state === "disconnected", 5_000);
  let t = Date.now();
  const selection = await mcp.callTool({ name: "getCurrentSelection", arguments: {} });
  timings.requiredToolFailureMs = Date.now() - t;
  expect(selection.isError).toBe(true);
  expect(textOf(selection)).toMatch(/not connected/);
  expect(toolErrorCode(selection)).toBe("extension_unavailable");
  t = Date.now();
  const folders = await mcp.callTool({ name: "getWorkspaceFolders", arguments: {} });
  timings.fallbackToolMs = Date.now() - t;
  expect(folders._meta).toEqual({ "claude-ide-bridge/backend": "headless" });
  expect(timings.requiredToolFailureMs).toBeLessThan(1_000);
  expect(timings.fallbackToolMs).toBeLessThan(1_000);

  // The window reloaded (as a user does after "Extension host terminated unexpectedly"): a new
  // extension host, whose extension finds the bridge again and reconnects by itself.
  const restarted = Date.now();
  await page.reload({ waitUntil: "domcontentloaded", timeout: CONNECT_TIMEOUT_MS });
  await shotOnFailure("restart-failure", () =>
    waitFor("the extension to reconnect", async () => (await health()).extension?.state === "connected", CONNECT_TIMEOUT_MS),
  );
  timings.restartToReconnectedMs = Date.now() - restarted;
  const back = await mcp.callTool({ name: "getWorkspaceFolders", arguments: {} });
  expect(back._meta).toEqual({ "claude-ide-bridge/backend": "extension" });
  expect(textOf(back)).toContain(bridge.workspace);
}, 240_000);

// ---------------------------------------------------------------- helpers

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

interface Health {
  extension?: { state: string };
}

async function health(): Promise<Health> {
  const res = await fetch(`${bridge.url}/health`, { headers: { authorization: `Bearer ${bridge.token}` } });
  return (await res.json()) as Health;
}

function textOf(result: Awaited<ReturnType<Client["callTool"]>>): string {
  const content = result.content as { type: string; text?: string }[];
  return content.map((c) => c.text ?? "").join("\n");
}

async function text(name: string, args: Record<string, unknown> = {}): Promise<string> {
  const result = await mcp.callTool({ name, arguments: args });
  expect(result.isError ?? false, textOf(result)).toBe(false);
  return textOf(result);
}

// biome-ignore lint/suspicious/noExplicitAny: the e2e reads tool answers loosely
async function data(name: string, args: Record<string, unknown> = {}): Promise<any> {
  const result = await mcp.callTool({ name, arguments: args });
  expect(result.isError ?? false, textOf(result)).toBe(false);
  return result.structuredContent;
}

async function shotOnFailure(name: string, step: () => Promise<unknown>): Promise<void> {
  try {
    await step();
  } catch (err) {
    await page.screenshot({ path: join(ARTIFACTS, `vscode-${name}.png`) }).catch(() => undefined);
    throw err;
  }
}

function run(cmd: string, args: string[], cwd: string, runEnv: NodeJS.ProcessEnv = process.env): string {
  const out = spawnSync(cmd, args, { cwd, env: runEnv, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: SETUP_TIMEOUT_MS });
  if (out.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed (${out.status}): ${out.stdout}\n${out.stderr}`);
  return out.stdout;
}

async function waitFor(what: string, cond: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function freePort(): Promise<number> {
  const { createServer } = await import("node:net");
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0));
    });
  });
}

function killGroup(pid: number): void {
  try {
    process.kill(-pid, "SIGTERM");
  } catch {
    return;
  }
  spawnSync("sleep", ["1"]);
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // gone
  }
}

/** The extension host of our code-server (its process group), from ps. */
function extensionHostPid(): number | undefined {
  const out = spawnSync("ps", ["-eo", "pid=,pgid=,args="], { encoding: "utf8" }).stdout;
  for (const line of out.split("\n")) {
    const [pid, pgid, ...args] = line.trim().split(/\s+/);
    if (Number(pgid) === codeServer?.pid && args.join(" ").includes("--type=extensionHost")) return Number(pid);
  }
  return undefined;
}

/** Claude Code's side of the IDE link: the lock file's WebSocket, initialized as claude-code. */
class IdeLinkClient {
  private readonly messages: { id?: number; method?: string; params?: unknown; result?: unknown }[] = [];
  private nextId = 1;

  private constructor(private readonly ws: WebSocket) {
    ws.on("message", (data) => this.messages.push(JSON.parse(data.toString())));
  }

  static async open(b: BridgeProcess): Promise<IdeLinkClient> {
    const ws = new WebSocket(b.wsUrl, ["mcp"], { headers: { "x-claude-code-ide-authorization": b.token } });
    await new Promise((resolve, reject) => {
      ws.once("open", resolve);
      ws.once("error", reject);
    });
    const client = new IdeLinkClient(ws);
    await client.request("initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "claude-code", version: "e2e" },
    });
    ws.send(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
    ws.send(JSON.stringify({ jsonrpc: "2.0", method: "ide_connected", params: { pid: process.pid } }));
    return client;
  }

  call(name: string, args: Record<string, unknown>): Promise<{ result?: unknown }> {
    return this.request("tools/call", { name, arguments: args }, 300_000);
  }

  async request(method: string, params: unknown, timeoutMs = 30_000): Promise<{ result?: unknown }> {
    const id = this.nextId++;
    this.ws.send(JSON.stringify({ jsonrpc: "2.0", id, method, params }));
    return this.waitFor((m) => m.id === id, timeoutMs);
  }

  async waitFor(match: (m: { id?: number; method?: string; params?: unknown }) => boolean, timeoutMs: number) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.find(match);
      if (found !== undefined) return found;
      if (Date.now() > deadline)
        throw new Error(`IDE link: nothing matched within ${timeoutMs} ms; got ${JSON.stringify(this.messages).slice(0, 2000)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  close(): void {
    this.ws.close();
  }
}
