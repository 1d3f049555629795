// Terminals through the extension in a REAL VS Code (the one code-server of vscode-ide.test.ts): a
// command's exit code and output through shell integration, a dev server waited on, no user secret
// inside; and a terminal without shell integration (turned off in the workspace's settings when it
// opened, as a user may have it), where a command is typed as text and the answer says there is no
// exit code, getTerminalOutput says why it has nothing to read, runInTerminal says the same instead
// of running the command a second way, and each command runs exactly once.
import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, it } from "vitest";
import { toolErrorCode } from "../../helpers/tool-error.ts";
import { textOf, type VSCodeE2E, waitUntil } from "../../helpers/vscode-e2e.ts";

/** The terminal cases' part of the workspace: npm scripts (npm is on the default allowlist). */
export const TERMINAL_FILES: Record<string, string> = {
  "package.json": JSON.stringify({
    name: "e2e-ws",
    private: true,
    scripts: {
      hello:
        "node -e \"console.log('hello-' + process.env.GREETING + ' token=' + (process.env.E2E_API_TOKEN ?? 'absent')); process.exit(3)\"",
      serve: "node server.js",
      // One line per run, named by its argument: how often a command really ran.
      mark: "node -e \"require('fs').appendFileSync('marks.txt', (process.argv[1] ?? 'mark') + '\\n')\"",
    },
  }),
  "server.js": "setTimeout(() => console.log('ready on port 4321'), 300);\nsetInterval(() => {}, 1000);\n",
};

/** Registers the terminal cases, in order, on the file's VS Code. */
export function terminalCases(vs: VSCodeE2E): void {
  const integration = "terminal.integrated.shellIntegration";
  it("a terminal opened while the workspace turns shell integration off: a command typed as text, and said so (no exit code)", async () => {
    // Written as the user writes their settings (the bridge's setWorkspaceSetting refuses terminal.integrated.*).
    const settings = join(vs.workspace, ".vscode", "settings.json");
    await writeFile(settings, JSON.stringify({ [`${integration}.enabled`]: false }));
    const workspaceSets = async (value: boolean | undefined) => {
      const shown = await vs.text("getWorkspaceSettings", { section: integration });
      return value === undefined
        ? /none set in this workspace/.test(shown)
        : shown.includes(`"enabled":${value}`) && /set in this workspace: enabled/.test(shown);
    };
    await waitUntil("VS Code to read the workspace's setting", () => workspaceSets(false), 30_000);
    const made = await vs.data("createTerminal", { name: "plain" });
    expect(made).toMatchObject({ name: "plain", createdByBridge: true, shellIntegration: false });
    // Typed as text: the answer says there is no exit code (the wait for integration ends 10 s after the terminal opened).
    const sent = await vs.text("sendTerminalCommand", { terminal: "plain", command: "npm", args: ["run", "mark"] });
    expect(sent).toMatch(
      /^\$ npm run mark\ntyped into VS Code terminal t\d+ "plain": its shell has no shell integration, so there is no exit code and its output cannot be read\.\n/,
    );
    // It ran, so its shell had started (VS Code chose the shell's arguments then): the setting goes back for the next terminals.
    await waitUntil("the typed command to run", async () => (await readFile(join(vs.workspace, "marks.txt"), "utf8")) === "mark\n", 60_000);
    await rm(settings);
    await waitUntil("VS Code to read the setting's removal", () => workspaceSets(undefined), 30_000);
  }, 120_000);

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
    expect(textOf(run)).toMatch(
      new RegExp(`^\\$ npm run hello\\nexit 3 · VS Code terminal ${id} "e2e"\\n[\\s\\S]*hello-there token=absent`),
    );

    // A dev server: started without waiting, its "ready" line waited for, its output read later.
    expect(await vs.text("sendTerminalCommand", { terminal: id, command: "npm", args: ["run", "serve"], waitMs: 0 })).toMatch(
      /still running in VS Code terminal/,
    );
    const ready = await vs.text("waitForTerminalOutput", { terminal: id, pattern: "ready on port \\d+", timeoutMs: 60_000 });
    expect(ready).toMatch(/^Matched in terminal .*\n.*ready on port 4321/);
    // The server still runs there: another command is not typed into it.
    const busy = await vs.mcp.callTool({
      name: "sendTerminalCommand",
      arguments: { terminal: id, command: "npm", args: ["run", "hello"] },
    });
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

  it("a terminal without shell integration: no output to read and why, runInTerminal as honest, each command run once", async () => {
    // With VS Code connected, runInTerminal types it into the terminal named and says the same; it does not run it again another way.
    const ran = await vs.call("runInTerminal", { command: "npm run mark", name: "plain" });
    expect(ran._meta).toEqual({ "claude-ide-bridge/backend": "extension" });
    expect(textOf(ran)).toMatch(/^\$ npm run mark\ntyped into VS Code terminal t\d+ "plain": its shell has no shell integration/);
    expect(await vs.text("getTerminalOutput", { terminal: "plain" })).toMatch(
      /\n\(nothing to read: this terminal's shell has no shell integration, so VS Code gives its output to no extension;/,
    );
    // A last command typed after them: once its line is there, the shell has run the two before it.
    await vs.text("sendTerminalCommand", { terminal: "plain", command: "npm", args: ["run", "mark", "--", "last"] });
    const marks = join(vs.workspace, "marks.txt");
    await waitUntil("the last command to run", async () => (await readFile(marks, "utf8")).includes("last"), 60_000);
    expect((await readFile(marks, "utf8")).split("\n")).toEqual(["mark", "mark", "last", ""]);
    expect(
      ((await vs.data("listTerminals")).terminals as { name: string; shellIntegration: boolean }[]).find((t) => t.name === "plain"),
    ).toMatchObject({
      shellIntegration: false,
    });
    await vs.text("disposeTerminal", { terminal: "plain" });
  }, 180_000);
}
