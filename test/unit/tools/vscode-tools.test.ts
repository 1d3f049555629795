// The vscode toolset: the deny tables (commands and settings) and what the tools send VS Code and
// print from its answers, with an in-process fake extension; the real one runs in
// test/e2e/vscode-ide.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commandsToolset } from "../../../src/tools/commands/index.ts";
import { terminalToolset } from "../../../src/tools/terminal/index.ts";
import { DECORATIONS, decorationKey } from "../../../src/tools/vscode/decoration-state.ts";
import { vscodeToolset } from "../../../src/tools/vscode/index.ts";
import { commandAllowed, commandDenied, settingRefusal } from "../../../src/tools/vscode/vscode-policy.ts";
import { connectedExtension } from "../../helpers/fake-extension.ts";
import { tempWorkspaces, type TempWorkspaces } from "../../helpers/temp-workspace.ts";
import { dispatcher } from "../../helpers/tool-dispatch.ts";

let spaces: TempWorkspaces;
let root: string;
beforeAll(async () => {
  spaces = await tempWorkspaces("vscode-tools-");
  root = await spaces.make("ws", { "a.ts": "const a = 1;\nconst b = 2;\n" });
});
afterAll(() => spaces.remove());

describe("the deny tables", () => {
  it("refuses VS Code commands that run code, type into terminals, change extensions, settings or trust; deny wins over allow", () => {
    for (const id of [
      "workbench.action.terminal.sendSequence",
      "workbench.action.terminal.runSelectedText",
      "terminal.sendSequence",
      "workbench.action.tasks.runTask",
      "workbench.action.debug.start",
      "workbench.extensions.installExtension",
      "workbench.extensions.uninstallExtension",
      "workbench.action.openSettingsJson",
      "workbench.action.openWorkspaceSettingsFile",
      "workbench.trust.manage",
      "git.commit",
      "python.execInTerminal",
      "jupyter.runcurrentcell",
      "notebook.cell.execute",
      "notebook.execute",
      "notebook.cell.executeAndSelectBelow",
      "vscode.openFolder",
      "claudeIdeBridge.acceptDiff",
      "_workbench.downloadResource",
    ])
      expect(commandDenied(id), id).toBe(true);
    for (const id of ["editor.action.formatDocument", "workbench.action.files.save", "editor.action.organizeImports"])
      expect(commandDenied(id), id).toBe(false);
    expect(commandAllowed("editor.action.formatDocument", ["editor.action.formatDocument"])).toBe(true);
    expect(commandAllowed("workbench.action.terminal.sendSequence", ["workbench.action.terminal.sendSequence"])).toBe(false);
    expect(commandAllowed("editor.action.formatDocument", [])).toBe(false);
  });

  it("refuses settings that decide what runs, its environment, what is trusted or where requests go", () => {
    for (const key of [
      "security.workspace.trust.enabled",
      "terminal.integrated.env.linux",
      "terminal.integrated.profiles.linux",
      "terminal.integrated.defaultProfile.linux",
      "terminal.integrated.shellArgs.linux",
      "python.defaultInterpreterPath",
      "eslint.nodePath",
      "eslint.runtime",
      "eslint.execArgv",
      "git.path",
      "typescript.tsdk",
      "typescript.tsserver.pluginPaths",
      "rust-analyzer.server.path",
      "go.alternateTools",
      "python.envFile",
      "python.terminal.activateEnvironment",
      "tasks",
      "launch.configurations",
      "extensions.autoUpdate",
      "http.proxy",
      "remote.SSH.path",
      "bad key!",
    ])
      expect(settingRefusal(key), key).toBeDefined();
    for (const key of [
      "editor.tabSize",
      "editor.formatOnSave",
      "files.exclude",
      "typescript.preferences.quoteStyle",
      "workbench.colorTheme",
    ])
      expect(settingRefusal(key), key).toBeUndefined();
  });
});

describe("capabilities", () => {
  // getToolCapabilities and doctor read these (its own tests cover how it reports them).
  it("the terminal and vscode tools need the extension (captureScreenshot answers why none can); runInTerminal works headless and better with it", () => {
    for (const tool of [...terminalToolset.tools, ...vscodeToolset.tools])
      expect(tool.requires.extension, tool.name).toBe(tool.name === "captureScreenshot" ? undefined : "required");
    expect(commandsToolset.tools.find((t) => t.name === "runInTerminal")?.requires.extension).toBe("fallback");
  });
});

describe("through VS Code", () => {
  it("executeVSCodeCommand runs only an allowed, not denied id; refused ones reach no VS Code", async () => {
    const fake = connectedExtension({ "extension/executeCommand": () => ({ json: '{"ok":true}', truncated: false }) });
    const d = await dispatcher(root, {
      extension: fake.client,
      settings: { vscodeAllowCommands: ["editor.action.formatDocument", "workbench.action.terminal.sendSequence"] },
    });
    expect(await d.text("executeVSCodeCommand", { command: "editor.action.formatDocument", args: [1] })).toBe(
      'Ran editor.action.formatDocument; it returned:\n{"ok":true}',
    );
    const denied = await d.failure("executeVSCodeCommand", {
      command: "workbench.action.terminal.sendSequence",
      args: [{ text: "rm -rf /\n" }],
    });
    expect(denied).toMatchObject({ code: "command_refused", error: expect.stringMatching(/deny list/) });
    const notAllowed = await d.failure("executeVSCodeCommand", { command: "editor.action.rename" });
    expect(notAllowed.suggestion).toMatch(/--vscode-allow-command editor\.action\.rename/);
    expect(fake.requests("extension/executeCommand").map((r) => r.params)).toEqual([
      { command: "editor.action.formatDocument", args: [1] },
    ]);
  });

  it("listVSCodeCommands filters and says which ids may run", async () => {
    const fake = connectedExtension({
      "extension/listCommands": () => ({
        commands: ["editor.action.formatDocument", "editor.action.formatSelection", "workbench.action.terminal.new"],
      }),
    });
    const d = await dispatcher(root, { extension: fake.client, settings: { vscodeAllowCommands: ["editor.action.formatDocument"] } });
    expect(await d.data("listVSCodeCommands", { filter: "FORMAT" })).toEqual({
      total: 2,
      commands: ["editor.action.formatDocument", "editor.action.formatSelection"],
      runnable: ["editor.action.formatDocument"],
    });
  });

  it("setWorkspaceSetting refuses by the table before asking VS Code, and says what the value was", async () => {
    const fake = connectedExtension({ "extension/setSetting": () => ({ previous: "2" }) });
    const d = await dispatcher(root, { extension: fake.client });
    expect(await d.text("setWorkspaceSetting", { key: "editor.tabSize", value: 4 })).toBe(
      "Set editor.tabSize to 4 in the workspace settings (was 2).",
    );
    expect((await d.failure("setWorkspaceSetting", { key: "terminal.integrated.env.linux", value: { X: "1" } })).code).toBe(
      "permission_denied",
    );
    expect(fake.requests("extension/setSetting").map((r) => r.params)).toEqual([{ key: "editor.tabSize", value: 4 }]);
  });

  it("runVSCodeTask says the exit code, or that the task is still running", async () => {
    let finished = true;
    const fake = connectedExtension({
      "extension/runTask": (p) => ({
        task: { name: p.name, source: "Workspace", type: "shell" },
        finished,
        ...(finished ? { exitCode: 1 } : {}),
      }),
    });
    const d = await dispatcher(root, { extension: fake.client, settings: { vscodeAllowTasks: ["build", "watch"] } });
    expect(await d.text("runVSCodeTask", { name: "build" })).toBe('Task "build" (Workspace) ended with exit code 1.');
    finished = false;
    expect(await d.text("runVSCodeTask", { name: "watch", waitMs: 0 })).toMatch(/^Task "watch" \(Workspace\) is still running/);
    expect(fake.requests("extension/runTask").map((r) => r.params)).toEqual([
      { name: "build", waitMs: 120_000 },
      { name: "watch", waitMs: 0 },
    ]);
  });

  it("runVSCodeTask runs only the tasks the user allowed, and asks VS Code nothing for the others", async () => {
    const fake = connectedExtension({
      "extension/runTask": (p) => ({ task: { name: p.name, source: "Workspace", type: "shell" }, finished: true, exitCode: 0 }),
    });
    const none = await dispatcher(root, { extension: fake.client });
    const refused = await none.failure("runVSCodeTask", { name: "build" });
    expect(refused.code).toBe("permission_denied");
    expect(refused.suggestion).toMatch(/--vscode-allow-task "build"/);
    const some = await dispatcher(root, { extension: fake.client, settings: { vscodeAllowTasks: ["build"] } });
    expect((await some.failure("runVSCodeTask", { name: "evil" })).code).toBe("permission_denied");
    expect(fake.requests("extension/runTask")).toEqual([]);
    expect(await some.text("runVSCodeTask", { name: "build" })).toBe('Task "build" (Workspace) ended with exit code 0.');
    const all = await dispatcher(root, { extension: fake.client, settings: { vscodeAllowTasks: ["*"] } });
    expect(await all.text("runVSCodeTask", { name: "evil" })).toBe('Task "evil" (Workspace) ended with exit code 0.');
  });

  it("setEditorDecorations sends 0-based lines under the session's own id; the session's end clears them", async () => {
    const fake = connectedExtension({
      "extension/setDecorations": (p) => ({ applied: p.decorations.length, visible: false }),
      "extension/clearDecorations": (p) => ({ cleared: p.ids.length }),
    });
    const d = await dispatcher(root, { extension: fake.client });
    expect(
      await d.text("setEditorDecorations", {
        file: "a.ts",
        id: "review",
        decorations: [{ line: 2, style: "warning", message: "why 2?", after: "magic number" }],
      }),
    ).toMatch(/^Set 1 decoration "review" on a\.ts, shown when the file is opened/);
    const sent = fake.requests("extension/setDecorations")[0]?.params as { id: string; filePath: string; decorations: unknown[] };
    expect(sent.filePath).toBe(`${root}/a.ts`);
    expect(sent.id).toMatch(/:review$/);
    expect(sent.decorations).toEqual([{ startLine: 1, endLine: 1, style: "warning", hoverMessage: "why 2?", after: "magic number" }]);
    expect((await d.failure("setEditorDecorations", { file: "../x.ts", decorations: [{ line: 1 }] })).code).toBe("outside_workspace");
    expect(await d.text("clearEditorDecorations", {})).toBe("Cleared 1 decoration set (review).");
    expect(await d.text("clearEditorDecorations", {})).toBe("No decorations of this session to clear.");

    // The toolset state: a session's end clears what it left.
    const owners = DECORATIONS.create();
    owners.add("s1", "a", fake.client);
    owners.add("s2", "b", fake.client);
    owners.releaseSession("s1");
    await new Promise((r) => setImmediate(r));
    // Under the key VS Code holds them by (the session's name space), as setEditorDecorations sent it.
    expect(fake.requests("extension/clearDecorations").at(-1)?.params).toEqual({ ids: [decorationKey("s1", "a")] });
    expect(owners.owned("s2")).toEqual(["b"]);
    owners.dispose();
    await new Promise((r) => setImmediate(r));
    expect(fake.requests("extension/clearDecorations").at(-1)?.params).toEqual({ ids: [decorationKey("s2", "b")] });
  });

  it("readClipboard caps the text and withholds a copied credential; writeClipboard copies", async () => {
    let clip = "x".repeat(10);
    const fake = connectedExtension({ "extension/readClipboard": () => ({ text: clip }), "extension/writeClipboard": () => ({}) });
    const d = await dispatcher(root, { extension: fake.client, maxResultChars: 1000 });
    expect(await d.text("readClipboard")).toBe("xxxxxxxxxx");
    clip = "y".repeat(1500);
    expect(await d.text("readClipboard")).toBe(`${"y".repeat(900)}\n[clipboard cut: 600 more characters]`);
    clip = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";
    expect((await d.failure("readClipboard")).code).toBe("permission_denied");
    expect(await d.text("writeClipboard", { text: "hello" })).toBe("Copied 5 characters to the clipboard.");
  });
});
