// The protocol-1.3 tools answered through VS Code (signature help, type hierarchy, rename preview,
// code actions, formatting): what the bridge asks, what it prints, and that VS Code's edits are
// made by the bridge through its jail (never outside the workspace, never over unsaved changes,
// exactly the previewed edit or nothing). Then the protocol version each tool declares: an older
// extension gets the headless answer with a note (or, for a tool only VS Code can answer, an
// isError naming the upgrade), and getToolCapabilities answers from the connected version. An
// in-process fake stands in for VS Code; the real one is driven in test/e2e/vscode-ide.test.ts (test/e2e/vscode-cases/editor.ts).
import { readFile, writeFile } from "node:fs/promises";
import * as v from "valibot";
import { beforeEach, afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ToolContext } from "../../../src/capabilities/context.ts";
import { EXTENSION_PROTOCOL_VERSION } from "../../../src/extension/protocol.ts";
import type { WireEdit } from "../../../src/extension/protocol-edit.ts";
import { toFileUri } from "../../../src/lib/paths/file-uri.ts";
import { defineTool } from "../../../src/tools/platform/define-tool.ts";
import { routeCall } from "../../../src/tools/platform/route-call.ts";
import { connectedExtension, extensionClient, FakeExtension, type FakeHandlers } from "../../helpers/fake-extension.ts";
import { tempWorkspaces, type TempWorkspaces } from "../../helpers/temp-workspace.ts";
import { dispatcher } from "../../helpers/tool-dispatch.ts";
import { createNodeRuntime } from "../../../runtime/node.ts";

const A = "export function foo(x: number): number {\n  return x*2;\n}\nfoo(1);\n";

let spaces: TempWorkspaces;
let root: string;
let a: string;
beforeAll(async () => {
  spaces = await tempWorkspaces("edits-vscode-");
  root = await spaces.make("ws", { "a.ts": A });
  a = toFileUri(`${root}/a.ts`);
});
afterAll(() => spaces.remove());
beforeEach(() => writeFile(`${root}/a.ts`, A));

const range = (line: number, character: number, length: number) => ({
  start: { line, character },
  end: { line, character: character + length },
});
const oneEdit = (uri: string, edits: WireEdit["files"][number]["edits"], more: Partial<WireEdit> = {}): WireEdit => ({
  files: [{ uri, edits }],
  dirty: [],
  fileOperations: false,
  ...more,
});

async function vsCode(handlers: FakeHandlers) {
  const fake = connectedExtension({
    "extension/readDocument": () => ({ text: A, isDirty: false, version: 1, languageId: "typescript", eol: "\n" }),
    ...handlers,
  });
  return { d: await dispatcher(root, { extension: fake.client }), fake };
}

describe("protocol-1.3 tools through VS Code", () => {
  it("signatureHelp and getTypeHierarchy print VS Code's answers as the headless tools print the server's", async () => {
    const { d, fake } = await vsCode({
      "extension/signatureHelp": () => ({
        signatures: [{ label: "foo(x: number): number", parameters: [{ label: "x: number", documentation: "the input" }] }],
        activeSignature: 0,
        activeParameter: 0,
      }),
      "extension/typeHierarchy": () => ({
        root: { name: "Box", kind: "class", uri: a, range: range(0, 16, 3) },
        supertypes: [{ name: "Base", kind: "interface", uri: a, range: range(3, 0, 3) }],
        subtypes: [],
      }),
    });
    const help = await d.call("signatureHelp", { file: "a.ts", line: 4, column: 5 });
    expect(help._meta).toEqual({ "claude-ide-bridge/backend": "extension" });
    expect(help.content[0]?.text).toBe("* foo(x: number): number\n    > x: number — the input\n(VS Code)");
    expect(fake.requests("extension/signatureHelp")[0]?.params).toEqual({ uri: a, position: { line: 3, character: 4 } });
    expect(await d.text("getTypeHierarchy", { file: "a.ts", line: 1, symbol: "foo" })).toBe(
      "Box class  a.ts:1:17  (VS Code)\n  supertypes:\n    Base interface  a.ts:4:1\n  subtypes:\n    (none)",
    );
    // No type hierarchy in VS Code (its TypeScript has none): the bridge's own tools answer.
    const none = await vsCode({ "extension/typeHierarchy": () => ({ supertypes: [], subtypes: [] }) });
    const headless = await none.d.call("getTypeHierarchy", { file: "a.ts", line: 1, symbol: "foo" });
    expect(headless._meta?.["claude-ide-bridge/backend"]).toBe("headless");
  });

  it("prepareRename says what VS Code would rename; renameSymbol's dry run shows VS Code's rename and writes nothing", async () => {
    const { d } = await vsCode({
      "extension/prepareRename": () => ({ range: range(0, 16, 3), placeholder: "foo" }),
      "extension/rename": (p) => ({
        edit: oneEdit(
          a,
          [range(0, 16, 3), range(3, 0, 3)].map((r) => ({ range: r, newText: p.newName })),
        ),
      }),
    });
    expect(await d.text("prepareRename", { file: "a.ts", line: 1, symbol: "foo" })).toBe(
      '`foo` can be renamed: a.ts:1:17-1:20 ("foo") (VS Code).',
    );
    const preview = await d.call("renameSymbol", { file: "a.ts", line: 1, symbol: "foo", newName: "twice", dryRun: true });
    expect(preview._meta).toEqual({ "claude-ide-bridge/backend": "extension" });
    expect(preview.content[0]?.text).toMatch(
      /^Would rename `foo` to `twice`: 1 file \(dry run; nothing written; computed by VS Code\)\.\nTo write it, call renameSymbol without dryRun/,
    );
    expect(preview.content[0]?.text).toMatch(/-export function foo\(x[\s\S]*\+export function twice\(x[\s\S]*\+twice\(1\);/);
    expect(await readFile(`${root}/a.ts`, "utf8")).toBe(A);
    // The write is the bridge's language server's (none here): headless, said so.
    const write = await d.call("renameSymbol", { file: "a.ts", line: 1, symbol: "foo", newName: "twice" });
    expect(write._meta?.["claude-ide-bridge/backend"]).toBe("headless");
  });

  it("code actions: listed from VS Code; previewed with a digest; written by the bridge exactly as previewed", async () => {
    const fix = oneEdit(a, [{ range: range(1, 9, 3), newText: "x * 2" }]);
    const { d, fake } = await vsCode({
      "extension/codeActions": () => ({
        actions: [
          { title: "Add spaces", kind: "quickfix", isPreferred: true },
          { title: "Run the linter", command: "eslint.run" },
        ],
        diagnostics: [{ range: range(1, 9, 3), severity: "warning", message: "no spaces", source: "lint" }],
      }),
      "extension/codeActionEdit": (p) => (p.index === 0 ? { edit: fix } : { edit: null, command: "eslint.run" }),
    });
    expect(await d.text("getCodeActions", { file: "a.ts", startLine: 2 })).toBe(
      [
        "Diagnostics in lines 2-2:",
        "  a.ts:2:10 warning lint: no spaces",
        "2 code actions for a.ts lines 2-2 (VS Code):",
        "1. [quickfix] Add spaces (preferred)",
        "2. Run the linter (command)",
      ].join("\n"),
    );
    const preview = await d.text("previewCodeAction", { file: "a.ts", startLine: 2, title: "add spaces" });
    const digest = /Preview ([0-9a-f]{8})/.exec(preview)?.[1];
    expect(preview).toMatch(/^Would apply "Add spaces": 1 file \(dry run/);
    expect(fake.requests("extension/codeActionEdit")[0]?.params).toMatchObject({ index: 0, title: "Add spaces", uri: a });
    expect(await readFile(`${root}/a.ts`, "utf8")).toBe(A);
    const applied = await d.text("applyCodeAction", { file: "a.ts", startLine: 2, title: "Add spaces", preview: digest });
    expect(applied).toMatch(/^Applied "Add spaces": 1 file written together \(computed by VS Code\)\./);
    expect(await readFile(`${root}/a.ts`, "utf8")).toBe(A.replace("x*2", "x * 2"));
    // The file changed since: the same digest is not the same edit any more.
    const stale = await d.text("applyCodeAction", { file: "a.ts", startLine: 2, title: "Add spaces", preview: digest });
    expect(stale).toMatch(/^NOT APPLIED: .*not the edit previewed/);
    // A command VS Code would run is not run by the bridge.
    const command = await d.failure("applyCodeAction", { file: "a.ts", startLine: 2, title: "Run the linter" });
    expect(command.error).toMatch(/runs VS Code's command eslint\.run.*the bridge does not run it/);
  });

  it("VS Code's edit is refused whole when it reaches outside the workspace, is over unsaved changes, or moves files", async () => {
    const outside = toFileUri("/etc/hostname");
    const cases: [WireEdit, string][] = [
      [
        {
          files: [...oneEdit(a, [{ range: range(0, 0, 0), newText: "// x\n" }]).files, { uri: outside, edits: [] }],
          dirty: [],
          fileOperations: false,
        },
        "outside_workspace",
      ],
      [oneEdit(a, [{ range: range(0, 0, 0), newText: "// x\n" }], { dirty: [a] }), "file_changed"],
      [oneEdit(a, [], { fileOperations: true }), "not_supported"],
    ];
    for (const [edit, code] of cases) {
      const { d } = await vsCode({
        "extension/codeActions": () => ({ actions: [{ title: "Fix" }], diagnostics: [] }),
        "extension/codeActionEdit": () => ({ edit }),
      });
      expect((await d.failure("applyCodeAction", { file: "a.ts", startLine: 1, title: "Fix" })).code, code).toBe(code);
      expect(await readFile(`${root}/a.ts`, "utf8")).toBe(A);
    }
  });

  it("formatRange and formatDocument: VS Code's formatter computes, the bridge writes; no formatter in VS Code is said", async () => {
    let formatter = true;
    const { d, fake } = await vsCode({
      "extension/format": () => ({ edit: oneEdit(a, [{ range: range(1, 9, 3), newText: "x * 2" }]), formatter }),
    });
    expect(await d.text("formatRange", { file: "a.ts", startLine: 2, endLine: 2, dryRun: true })).toMatch(
      /^Would format lines 2-2 of a\.ts: 1 file \(dry run/,
    );
    expect(fake.requests("extension/format")[0]?.params).toEqual({
      uri: a,
      range: { start: { line: 1, character: 0 }, end: { line: 1, character: 13 } },
    });
    expect(await d.text("formatDocument", { file: "a.ts" })).toMatch(/^Formatted a\.ts with VS Code's formatter\.\n/);
    expect(await readFile(`${root}/a.ts`, "utf8")).toBe(A.replace("x*2", "x * 2"));
    // No formatter in VS Code: the bridge's answers (no language server here, so it says that).
    formatter = false;
    const headless = await d.call("formatRange", { file: "a.ts", startLine: 2, endLine: 2 });
    expect(headless._meta?.["claude-ide-bridge/backend"]).toBe("headless");
  });
});

describe("the extension protocol a tool needs", () => {
  const fields = {
    description: "Answers which backend ran, for the test.",
    searchHint: "test",
    input: v.strictObject({}),
    annotations: { readOnlyHint: true },
    extensionProtocol: "1.3.0",
    viaExtension: async () => "from VS Code",
  } as const;
  const tool = defineTool({ ...fields, name: "probeTool", handler: async () => "from the bridge" });
  const only = defineTool({ ...fields, name: "onlyVsCode" });
  const ctxOf = (fake: FakeExtension) => ({ extension: fake.client, log: () => undefined }) as unknown as ToolContext;

  it("an older extension gets the headless answer with a note; a tool only VS Code answers says which upgrade it needs", async () => {
    const old = new FakeExtension(extensionClient()).connect({ protocolVersion: "1.2.0" });
    const route = routeCall(tool);
    expect(await route.run({}, ctxOf(old))).toBe(
      "NOTE: answered by the bridge's own language tools: the connected VS Code extension speaks protocol 1.2.0, and asking VS Code this needs 1.3.0 (run claude-ide-bridge install-extension, then reload VS Code).\nfrom the bridge",
    );
    expect(route.backend()).toBe("headless");
    await expect(routeCall(only).run({}, ctxOf(old))).rejects.toMatchObject({
      code: "not_supported",
      message: expect.stringMatching(/protocol 1\.2\.0; onlyVsCode needs 1\.3\.0/),
    });
    const current = new FakeExtension(extensionClient()).connect();
    expect(await routeCall(tool).run({}, ctxOf(current))).toBe("from VS Code");
  });

  it("getToolCapabilities answers from the connected extension's version", async () => {
    const caps = async (protocolVersion: string) => {
      const fake = new FakeExtension(extensionClient()).connect({ protocolVersion });
      // No executables found: getToolCapabilities starts none (unit tests are in-process).
      const runtime = { ...createNodeRuntime(), which: async () => undefined };
      return (await dispatcher(root, { extension: fake.client, runtime })).data<{
        extensionConnected: boolean;
        extensionProtocol?: string;
        unavailable: { tools: string[]; reason: string }[];
        fallback: string[];
      }>("getToolCapabilities");
    };
    const old = await caps("1.1.0");
    expect(old).toMatchObject({ extensionConnected: true, extensionProtocol: "1.1.0" });
    const needs12 = old.unavailable.find((u) => u.reason.startsWith("needs extension protocol 1.2.0"));
    expect(needs12?.tools).toEqual(expect.arrayContaining(["setWorkspaceSetting", "listTerminals", "readClipboard"]));
    expect(old.fallback).toEqual(expect.arrayContaining(["signatureHelp", "getCodeActions", "formatDocument", "runInTerminal"]));
    expect(old.fallback).not.toContain("findReferences");
    const mid = await caps("1.2.0");
    // Only what a later protocol added (the notebooks) is out of reach of a 1.2.0 extension.
    const later = mid.unavailable.filter((u) => u.reason.startsWith("needs extension protocol"));
    expect(later.map((u) => u.reason.slice(0, "needs extension protocol 1.5.0".length))).toEqual(["needs extension protocol 1.5.0"]);
    expect(later[0]?.tools).toEqual(expect.arrayContaining(["getNotebookCells", "runNotebookCell"]));
    expect(mid.fallback).toEqual(expect.arrayContaining(["signatureHelp", "getTypeHierarchy", "prepareRename", "formatRange"]));
    expect(mid.fallback).not.toContain("runInTerminal");
    const now = await caps(EXTENSION_PROTOCOL_VERSION);
    expect(now.fallback).toEqual([]);
    expect(now.unavailable.some((u) => u.reason.includes("extension"))).toBe(false);
  });
});
