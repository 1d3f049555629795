// VS Code itself through the extension in a REAL VS Code (the one code-server of
// vscode-ide.test.ts): executeVSCodeCommand's allow and deny lists, a task's exit code, workspace
// settings within the deny table, decorations (drawn, and gone with the session that set them), the
// clipboard.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, it } from "vitest";
import { toolErrorCode } from "../../helpers/tool-error.ts";
import { textOf, type VSCodeE2E, waitUntil } from "../../helpers/vscode-e2e.ts";

export const WORKBENCH_FILES: Record<string, string> = {
  ".vscode/tasks.json": JSON.stringify({
    version: "2.0.0",
    tasks: [{ label: "e2e-task", type: "shell", command: "exit 4" }],
  }),
};

export const WORKBENCH_BRIDGE_ARGS = [
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
];

/** Registers the VS Code cases on the file's VS Code. */
export function workbenchCases(vs: VSCodeE2E): void {
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
    expect(await vs.text("runVSCodeTask", { name: "e2e-task", waitMs: 120_000 })).toBe(
      'Task "e2e-task" (Workspace) ended with exit code 4.',
    );

    expect(await vs.text("setWorkspaceSetting", { key: "editor.tabSize", value: 3 })).toMatch(
      /^Set editor\.tabSize to 3 in the workspace settings/,
    );
    expect(await vs.text("getWorkspaceSettings", { section: "editor" })).toMatch(/set in this workspace: .*tabSize[\s\S]*"tabSize":3/);
    expect(JSON.parse(await readFile(join(vs.bridge.workspace, ".vscode", "settings.json"), "utf8"))).toMatchObject({
      "editor.tabSize": 3,
    });
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
}
