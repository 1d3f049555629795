// Claude Code's IDE-link tools (protocol.md A4/A5) and the routing between VS Code and the headless
// path, through a real session and tool environment with an in-process fake extension: the IDE
// shapes and texts, openDiff's accept and reject, a dropped extension falling back mid-call, and
// tools that need the editor failing at once with how to connect.
import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defineTool } from "../../../src/tools/platform/define-tool.ts";
import { defineToolset } from "../../../src/tools/platform/toolset.ts";
import { ideLinkToolsets } from "../../../src/tools/ide-link-toolsets.ts";
import { TOOLSETS } from "../../../src/tools/toolsets.ts";
import { toFileUri } from "../../../src/lib/paths/file-uri.ts";
import { connectedExtension, FakeExtension, extensionClient } from "../../helpers/fake-extension.ts";
import { tempWorkspaces, type TempWorkspaces } from "../../helpers/temp-workspace.ts";
import { dispatcher } from "../../helpers/tool-dispatch.ts";

let spaces: TempWorkspaces;
let root: string;
beforeAll(async () => {
  spaces = await tempWorkspaces("ide-link-");
  root = await spaces.make("ws", { "a.ts": "export const a: number = 1;\n", "b.ts": "const b = 2;\n" });
});
afterAll(() => spaces.remove());

const range = { start: { line: 0, character: 6 }, end: { line: 0, character: 7 } };

describe("IDE link tools", () => {
  it("getDiagnostics {uri} answers from VS Code's pushed diagnostics in the IDE shape; without an editor it says where to look", async () => {
    const fake = connectedExtension();
    const uri = toFileUri(`${root}/a.ts`);
    fake.push("extension/diagnosticsChanged", {
      files: [
        {
          uri,
          diagnostics: [
            { range, severity: "error", message: "Type 'string' is not assignable to type 'number'.", source: "ts", code: 2322 },
          ],
        },
        { uri: toFileUri(`${root}/b.ts`), diagnostics: [{ range, severity: "hint", message: "unused" }] },
      ],
    });
    const d = await dispatcher(root, { toolsets: ideLinkToolsets(TOOLSETS), extension: fake.client });
    expect(JSON.parse(await d.text("getDiagnostics", { uri }))).toEqual([
      {
        uri,
        diagnostics: [{ message: "Type 'string' is not assignable to type 'number'.", severity: "Error", range, source: "ts", code: 2322 }],
      },
    ]);
    expect(JSON.parse(await d.text("getDiagnostics", {}))).toHaveLength(2);
    // The bridge's own getDiagnostics ({file, severity}) is not what the IDE link serves.
    expect((await d.failure("getDiagnostics", { file: "a.ts" })).error).toMatch(/unknown.*file|file/);
    const headless = await dispatcher(root, { toolsets: ideLinkToolsets(TOOLSETS) });
    const failure = await headless.failure("getDiagnostics", {});
    expect(failure.suggestion).toMatch(/claude-ide-bridge server's getDiagnostics/);
  });

  it("openDiff holds the answer until the user accepts (FILE_SAVED + final text) or rejects (DIFF_REJECTED + tab name)", async () => {
    const fake = connectedExtension({
      "extension/openDiff": () => ({ shown: true }),
      "extension/closeDiffs": (p) => ({ closed: p.tabNames.length }),
    });
    const d = await dispatcher(root, { toolsets: ideLinkToolsets(TOOLSETS), extension: fake.client });
    const args = (tab: string) => ({
      old_file_path: `${root}/a.ts`,
      new_file_path: `${root}/a.ts`,
      new_file_contents: "export const a = 2;\n",
      tab_name: tab,
    });
    const accepted = d.call("openDiff", args("✻ [Claude Code] a.ts ⧉"));
    await until(() => fake.requests("extension/openDiff").length === 1);
    expect(fake.requests("extension/openDiff")[0]?.params).toEqual({
      oldFilePath: `${root}/a.ts`,
      newFilePath: `${root}/a.ts`,
      newContents: "export const a = 2;\n",
      tabName: "✻ [Claude Code] a.ts ⧉",
    });
    fake.push("extension/diffResolved", { tabName: "✻ [Claude Code] a.ts ⧉", outcome: "accepted", contents: "export const a = 3;\n" });
    expect((await accepted).content).toEqual([
      { type: "text", text: "FILE_SAVED" },
      { type: "text", text: "export const a = 3;\n" },
    ]);
    const rejected = d.call("openDiff", args("t2"));
    await until(() => fake.requests("extension/openDiff").length === 2);
    fake.push("extension/diffResolved", { tabName: "t2", outcome: "rejected" });
    expect((await rejected).content).toEqual([
      { type: "text", text: "DIFF_REJECTED" },
      { type: "text", text: "t2" },
    ]);
    const third = d.call("openDiff", args("t3"));
    await until(() => fake.requests("extension/openDiff").length === 3);
    expect(await d.text("closeAllDiffTabs")).toBe("CLOSED_1_DIFF_TABS");
    expect((await third).content[0]?.text).toBe("DIFF_REJECTED");
    // Outside the workspace is refused, as every path is.
    expect((await d.failure("openDiff", { ...args("t4"), new_file_path: "/etc/passwd" })).code).toBe("outside_workspace");
  });

  it("selections, open file and dirty checks answer in the IDE's texts", async () => {
    const sel = { text: "a", filePath: `${root}/a.ts`, fileUrl: toFileUri(`${root}/a.ts`), selection: { ...range, isEmpty: false } };
    const fake = connectedExtension({
      "extension/getSelection": () => ({ selection: null }),
      "extension/openFile": () => ({ filePath: `${root}/a.ts`, languageId: "typescript", lineCount: 1 }),
      "extension/checkDocumentDirty": (p) => ({ open: p.filePath.endsWith("a.ts"), isDirty: true, isUntitled: false }),
      "extension/closeTab": () => ({ closed: 1 }),
    });
    const d = await dispatcher(root, { toolsets: ideLinkToolsets(TOOLSETS), extension: fake.client });
    expect(JSON.parse(await d.text("getCurrentSelection"))).toEqual({ success: false, message: "No active editor found" });
    expect(JSON.parse(await d.text("getLatestSelection"))).toEqual({ success: false, message: "No selection available" });
    fake.push("extension/selectionChanged", sel);
    expect(JSON.parse(await d.text("getLatestSelection"))).toEqual({ success: true, ...sel });
    expect(await d.text("openFile", { filePath: `${root}/a.ts` })).toBe(`Opened file: ${root}/a.ts`);
    expect(JSON.parse(await d.text("openFile", { filePath: `${root}/a.ts`, makeFrontmost: false }))).toEqual({
      success: true,
      filePath: `${root}/a.ts`,
      languageId: "typescript",
      lineCount: 1,
    });
    expect(JSON.parse(await d.text("checkDocumentDirty", { filePath: `${root}/a.ts` }))).toEqual({
      success: true,
      filePath: `${root}/a.ts`,
      isDirty: true,
      isUntitled: false,
    });
    expect(JSON.parse(await d.text("checkDocumentDirty", { filePath: `${root}/b.ts` }))).toEqual({
      success: false,
      message: `Document not open: ${root}/b.ts`,
    });
    expect(await d.text("close_tab", { tab_name: "x" })).toBe("TAB_CLOSED");
  });
});

describe("routing", () => {
  const both = defineTool({
    name: "bothWays",
    description: "Answers through VS Code when it can, headless otherwise.",
    searchHint: "test",
    input: v.strictObject({}),
    annotations: { readOnlyHint: true },
    async viaExtension(_input, ctx) {
      await ctx.extension.request("extension/getSelection", {}, { signal: ctx.signal });
      return "extension";
    },
    async handler() {
      return "headless";
    },
  });
  const onlyEditor = defineTool({
    name: "onlyEditor",
    description: "Needs VS Code.",
    searchHint: "test",
    input: v.strictObject({}),
    annotations: { readOnlyHint: true },
    async viaExtension() {
      return "extension";
    },
  });
  const toolsets = [defineToolset({ name: "routing", purpose: "test", tools: [both, onlyEditor] })];

  it("says which backend answered; falls back headless when VS Code goes away mid-call; fails at once when only VS Code can answer", async () => {
    const fake = new FakeExtension(extensionClient(), { "extension/getSelection": () => ({ never: true }) }).connect();
    const d = await dispatcher(root, { toolsets, extension: fake.client });
    const call = d.call("bothWays");
    await until(() => fake.requests("extension/getSelection").length === 1);
    fake.disconnect();
    expect(await call).toEqual({ content: [{ type: "text", text: "headless" }], _meta: { "claude-ide-bridge/backend": "headless" } });
    const started = Date.now();
    const failure = await d.failure("onlyEditor");
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(failure).toMatchObject({
      code: "extension_unavailable",
      error: expect.stringMatching(/onlyEditor needs the VS Code extension/),
      suggestion: expect.stringMatching(/install-extension/),
    });
    const again = new FakeExtension(fake.client, { "extension/getSelection": () => ({ selection: null }) }).connect();
    expect(again.client.connected).toBe(true);
    expect(await d.call("bothWays")).toEqual({
      content: [{ type: "text", text: "extension" }],
      _meta: { "claude-ide-bridge/backend": "extension" },
    });
  });
});

// Bounded by time, not by turns of the event loop: the call reaches the fake through the jail's file
// system calls, which a loaded machine answers after many more turns (1,000 were too few at load 8).
async function until(cond: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!cond() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 1));
  expect(cond()).toBe(true);
}
