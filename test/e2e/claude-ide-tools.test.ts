// The real Claude Code CLI (`claude --ide`, interactive, in a pseudo-terminal: test/helpers/claude-pty.ts)
// finds the bridge through its lock file, with an extension connected to the bridge, and uses the
// IDE link as it does with the official extension, the model being a scripted local stand-in
// (test/helpers/fake-model-api.ts):
//   - a selection made in the editor (the extension's push) reaches Claude Code as selection_changed
//     and the model sees it in its prompt;
//   - the model calls the IDE's getDiagnostics {uri} and gets the editor's diagnostics of that file;
//   - the model edits a file: Claude Code shows the change with openDiff, the editor accepts it
//     (FILE_SAVED), and the edit lands.
// The extension here is a WebSocket client speaking the extension protocol (VS Code itself is
// driven in the vscode-*.test.ts files: one code-server per file is what CI can afford).
import { mkdir, mkdtemp, readFile, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { WebSocket } from "ws";
import { EXTENSION_AUTH_HEADER, EXTENSION_PATH } from "../../src/extension/protocol.ts";
import { extensionHello } from "../helpers/extension-hello.ts";
import { toFileUri } from "../../src/lib/paths/file-uri.ts";
import { resultText } from "../helpers/call-tool-through-claude.ts";
import { type ClaudePty, requirePty, seedClaudeConfig, startClaudePty } from "../helpers/claude-pty.ts";
import { type FakeModelApi, startFakeModelApi } from "../helpers/fake-model-api.ts";
import { isToolResult, isToolUse, type MessagesRequest, type ToolResultBlock } from "../helpers/model-api-types.ts";
import { type BridgeProcess, startBridgeProcess } from "../helpers/spawn-bridge.ts";

const API_KEY = "sk-ant-fake-ide-tools-test";
const SELECTED = "export function greet(name: string): string {";
const DIAGNOSTIC = "Cannot find name 'nobody'. (fake editor diagnostic)";
const EDIT_FROM = "return `Hello, ${name}`;";
const EDIT_TO = "return `Hi, ${name}`;";

let work: string;
let bridge: BridgeProcess;
let model: FakeModelApi;
let claude: ClaudePty | undefined;
let extension: WebSocket;
const fromBridge: { id?: number; method: string; params: Record<string, unknown> }[] = [];
const turns: MessagesRequest[] = [];

beforeAll(async () => {
  requirePty();
  work = await realpath(await mkdtemp(join(tmpdir(), "claude-ide-tools-")));
  await mkdir(join(work, "config"));
  bridge = await startBridgeProcess({ configDir: join(work, "config"), args: ["--verbose"] });
  await seedClaudeConfig(bridge.configDir, { workspace: bridge.workspace, apiKey: API_KEY });
  extension = await connectExtension(bridge);
  model = await startFakeModelApi(modelScript);
}, 60_000);

afterAll(async () => {
  await claude?.stop();
  extension?.close();
  await model?.close();
  await bridge?.stop();
  if (work !== undefined) await rm(work, { recursive: true, force: true });
}, 60_000);

it("claude --ide: the selection reaches the model, getDiagnostics {uri} answers, an edit goes through openDiff", async () => {
  const index = join(bridge.workspace, "src", "index.ts");
  claude = startClaudePty({
    workspace: bridge.workspace,
    configDir: bridge.configDir,
    home: work,
    apiKey: API_KEY,
    baseUrl: model.url,
    // default mode: an edit asks permission, which with an IDE connected is a diff shown there.
    args: ["--ide", "--debug", "--permission-mode", "default", "--allowedTools", "mcp__ide__getDiagnostics,Read"],
  });
  const diag = () =>
    `--- bridge ---\n${bridge.stderr().slice(-3000)}\n--- screen ---\n${claude?.screen().slice(-3000)}\n` +
    `--- from bridge to extension ---\n${JSON.stringify(fromBridge).slice(0, 2000)}\n--- model requests ---\n${model.requests.map((r) => `${r.kind} ${r.status}`).join(", ")}\n` +
    `--- script errors ---\n${model.scriptErrors.map(String).join("\n")}\n--- debug (IDE) ---\n${(claude?.debugLog() ?? "")
      .split("\n")
      .filter((l) => /ide|IDE/.test(l))
      .slice(-40)
      .join("\n")}`;
  await waitFor(
    "Claude Code to connect over the lock file",
    () => /Claude Code (re)?connected over WebSocket/.test(bridge.stderr()),
    60_000,
    diag,
  );
  // Its IDE client takes notifications once its setup of the connection is over (the last line it logs).
  await waitFor(
    "Claude Code's IDE client",
    () => /MCP server "ide": Channel notifications skipped/.test(claude?.debugLog() ?? ""),
    60_000,
    diag,
  );
  // The user selects a line in the editor: the extension pushes it; the bridge tells Claude Code.
  // Pushed as soon as the IDE client takes notifications, so that Claude Code has the whole wait
  // for its prompt and the typing to take it in (it has no acknowledgement to wait for).
  push("extension/selectionChanged", {
    text: SELECTED,
    filePath: index,
    fileUrl: toFileUri(index),
    selection: { start: { line: 0, character: 0 }, end: { line: 0, character: SELECTED.length }, isEmpty: false },
  });
  await waitFor("Claude Code's prompt", () => /❯/.test(claude?.screen() ?? ""), 60_000, diag);
  // Claude Code shows the selection it took in under its prompt; a prompt sent before that goes
  // without it.
  await waitFor("Claude Code to show the selection", () => /1 line selected/.test(claude?.screen() ?? ""), 30_000, diag);

  const typed = "Check the diagnostics of src/index.ts, then change the greeting.";
  claude.type(typed);
  // Claude Code has drawn the typed prompt.
  await waitFor("Claude Code to echo the prompt", () => /greeting\./.test(claude?.screen() ?? ""), 30_000, diag);

  claude.type("\r");
  await waitFor(
    "the model's last turn",
    () => resultOf(turns.at(-1), "Edit") !== undefined || model.scriptErrors.length > 0,
    180_000,
    diag,
  );
  const last = turns.at(-1);

  // 1. The selection, as the model saw it in the first turn.
  expect(JSON.stringify(turns[0]?.messages), diag()).toContain(SELECTED);
  // 2. getDiagnostics {uri}: the editor's diagnostic of that file, in the IDE's shape.
  const diagnostics = resultOf(last, GET_DIAGNOSTICS);
  expect(diagnostics, diag()).toBeDefined();
  expect(JSON.parse(resultText(diagnostics as ToolResultBlock))).toEqual([
    expect.objectContaining({
      uri: toFileUri(index),
      diagnostics: [expect.objectContaining({ message: DIAGNOSTIC, severity: "Error" })],
    }),
  ]);
  // 3. The edit: shown as a diff in the editor (openDiff), accepted there, and applied.
  const diff = fromBridge.find((m) => m.method === "extension/openDiff");
  expect(diff?.params, diag()).toMatchObject({ oldFilePath: index, newFilePath: index });
  expect(String(diff?.params.newContents)).toContain(EDIT_TO);
  const edit = resultOf(last, "Edit");
  expect(edit?.is_error ?? false, diag()).toBe(false);
  expect(await readFile(index, "utf8")).toContain(EDIT_TO);
  // What Claude Code asked of the editor on its own, for the record.
  console.log(`Claude Code's requests to the editor: ${[...new Set(fromBridge.map((m) => m.method))].join(", ")}`);
}, 300_000);

// ---------------------------------------------------------------- the model's script

const GET_DIAGNOSTICS = "mcp__ide__getDiagnostics";

/** Each step once its predecessor's result is in: IDE diagnostics (loaded by ToolSearch when deferred), Read, Edit. */
function modelScript(request: MessagesRequest) {
  turns.push(request);
  const index = join(bridge.workspace, "src", "index.ts");
  const offered = request.tools?.find((t) => t.name === GET_DIAGNOSTICS);
  if (resultOf(request, GET_DIAGNOSTICS) === undefined) {
    const loaded = offered !== undefined && (!offered.defer_loading || resultOf(request, "ToolSearch") !== undefined);
    if (loaded) return { toolUses: [{ name: GET_DIAGNOSTICS, input: { uri: toFileUri(index) } }] };
    if (resultOf(request, "ToolSearch") !== undefined || !request.tools?.some((t) => t.name === "ToolSearch"))
      throw new Error(`the IDE's getDiagnostics is not offered: ${(request.tools ?? []).map((t) => t.name).join(", ")}`);
    return { toolUses: [{ name: "ToolSearch", input: { query: `select:${GET_DIAGNOSTICS}` } }] };
  }
  if (resultOf(request, "Read") === undefined) return { toolUses: [{ name: "Read", input: { file_path: index } }] };
  if (resultOf(request, "Edit") === undefined)
    return { toolUses: [{ name: "Edit", input: { file_path: index, old_string: EDIT_FROM, new_string: EDIT_TO } }] };
  return { text: "Done." };
}

function resultOf(request: MessagesRequest | undefined, tool: string): ToolResultBlock | undefined {
  const blocks = (request?.messages ?? []).flatMap((m) => (typeof m.content === "string" ? [] : m.content));
  const use = blocks.filter(isToolUse).findLast((b) => b.name === tool);
  return use && blocks.filter(isToolResult).find((b) => b.tool_use_id === use.id);
}

// ---------------------------------------------------------------- the extension's end

function push(method: string, params: unknown): void {
  extension.send(JSON.stringify({ jsonrpc: "2.0", method, params }));
}

async function connectExtension(b: BridgeProcess): Promise<WebSocket> {
  const ws = new WebSocket(`${b.url.replace(/^http/, "ws")}${EXTENSION_PATH}`, { headers: { [EXTENSION_AUTH_HEADER]: b.token } });
  await new Promise((resolve, reject) => {
    ws.once("open", resolve);
    ws.once("error", reject);
  });
  const index = join(b.workspace, "src", "index.ts");
  const answer = (id: number, result: unknown) => ws.send(JSON.stringify({ jsonrpc: "2.0", id, result }));
  ws.on("message", (data) => {
    const m = JSON.parse(data.toString()) as { id?: number; method?: string; params?: Record<string, unknown> };
    if (m.method === undefined || typeof m.id !== "number") return;
    fromBridge.push({ id: m.id, method: m.method, params: m.params ?? {} });
    const p = m.params ?? {};
    switch (m.method) {
      case "extension/openDiff":
        answer(m.id, { shown: true });
        // The user clicks Accept.
        setImmediate(() => push("extension/diffResolved", { tabName: p.tabName, outcome: "accepted", contents: p.newContents }));
        return;
      case "extension/closeTab":
        return answer(m.id, { closed: 1 });
      case "extension/closeDiffs":
        return answer(m.id, { closed: (p.tabNames as unknown[]).length });
      case "extension/getOpenEditors":
        return answer(m.id, { tabs: [] });
      case "extension/getSelection":
        return answer(m.id, { selection: null });
      case "extension/getWorkspaceFolders":
        return answer(m.id, { folders: [{ name: "ws", uri: toFileUri(b.workspace), path: b.workspace }] });
      case "extension/checkDocumentDirty":
        return answer(m.id, { open: false, isDirty: false, isUntitled: false });
      case "extension/getDiagnostics":
        return answer(m.id, { files: [diagnosticsOf(index)], settled: true });
      default:
        ws.send(JSON.stringify({ jsonrpc: "2.0", id: m.id, error: { code: -32601, message: `not in this test: ${m.method}` } }));
    }
  });
  const hello = new Promise<void>((resolve, reject) => {
    ws.once("message", (data) => {
      const m = JSON.parse(data.toString()) as { id?: string; error?: unknown };
      if (m.id === "hello" && m.error === undefined) resolve();
      else reject(new Error(`hello refused: ${data.toString()}`));
    });
  });
  ws.send(extensionHello([{ name: "ws", uri: toFileUri(b.workspace), path: b.workspace }]));
  await hello;
  ws.send(JSON.stringify({ jsonrpc: "2.0", method: "extension/diagnosticsChanged", params: { files: [diagnosticsOf(index)] } }));
  return ws;
}

function diagnosticsOf(file: string) {
  const range = { start: { line: 1, character: 2 }, end: { line: 1, character: 8 } };
  return { uri: toFileUri(file), diagnostics: [{ range, severity: "error", message: DIAGNOSTIC, source: "ts", code: 2304 }] };
}

async function waitFor(what: string, cond: () => boolean, ms: number, diag: () => string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}\n${diag()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
