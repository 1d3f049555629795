// The debug tools with VS Code connected (protocol 1.4): startDebugging of a JavaScript program or an
// inline configuration goes to VS Code (an inline configuration may not pick another executable nor
// name paths outside the workspace), a stopped session is read through its DAP requests into the
// headless tools' shapes (secrets masked), and a headless session's id or an older extension keeps
// the headless path. An in-process fake stands in for VS Code; the real js-debug is driven in
// test/e2e/vscode-ide.test.ts.
import { afterAll, beforeAll, expect, it } from "vitest";
import type { WireDebugSession } from "../../../src/extension/protocol-debug.ts";
import { connectedExtension, extensionClient, FakeExtension, type FakeHandlers } from "../../helpers/fake-extension.ts";
import { tempWorkspaces, type TempWorkspaces } from "../../helpers/temp-workspace.ts";
import { dispatcher } from "../../helpers/tool-dispatch.ts";

let spaces: TempWorkspaces;
let root: string;
beforeAll(async () => {
  spaces = await tempWorkspaces("debug-vscode-");
  root = await spaces.make("ws", { "app.js": "function f(apiToken) {\n  const n = 2;\n  return n;\n}\nf('x');\n" });
});
afterAll(() => spaces.remove());

const stopped = (): WireDebugSession => ({
  id: "vscode-1",
  name: "app.js",
  type: "pwa-node",
  state: { kind: "stopped", reason: "breakpoint", threadId: 1 },
  active: true,
  startedByBridge: true,
  supportsExceptionInfo: false,
  outputEnd: 0,
});

function fakeVSCode(sent: unknown[]): FakeHandlers {
  return {
    "extension/debugStart": (p) => {
      sent.push(p);
      return {
        session: stopped(),
        output: "hi\n",
        breakpoints: [
          { filePath: `${root}/app.js`, line: 3, verified: true, id: 1 },
          { filePath: `${root}/app.js`, line: 9, verified: false, message: "Unbound breakpoint" },
        ],
      };
    },
    "extension/debugSessions": () => ({ sessions: [stopped()] }),
    "extension/debugRequest": ({ command }) => {
      const bodies: Record<string, unknown> = {
        threads: { threads: [{ id: 1, name: "main" }] },
        stackTrace: {
          stackFrames: [{ id: 7, name: "f", line: 3, column: 3, source: { path: `vscode-remote://127.0.0.1:8080${root}/app.js` } }],
        },
        scopes: { scopes: [{ name: "Local", variablesReference: 5, expensive: false, presentationHint: "locals" }] },
        variables: {
          variables: [
            { name: "n", value: "2", type: "number", variablesReference: 0 },
            { name: "apiToken", value: "'x'", type: "string", variablesReference: 0 },
          ],
        },
      };
      return { body: bodies[command] };
    },
  };
}

it("startDebugging a JavaScript program goes to VS Code and answers in the headless shape, secrets masked", async () => {
  const sent: unknown[] = [];
  const fake = connectedExtension(fakeVSCode(sent));
  const d = await dispatcher(root, { extension: fake.client });
  const start = await d.data<Record<string, unknown>>("startDebugging", { program: "app.js", timeoutMs: 5_000 });
  expect(sent).toEqual([
    expect.objectContaining({
      configuration: { type: "node", request: "launch", name: "app.js", program: `${root}/app.js`, cwd: root },
      waitMs: 5_000,
      allowTasks: [],
    }),
  ]);
  expect(start).toEqual({
    sessionId: "vscode-1",
    state: "stopped",
    stop: {
      reason: "breakpoint",
      threadId: 1,
      stack: [{ id: 7, name: "f", file: "app.js", line: 3 }],
      locals: [
        { name: "n", value: "2", type: "number" },
        { name: "apiToken", value: "[masked: looks like a secret]", type: "string" },
      ],
    },
    newOutput: "hi\n",
    language: "pwa-node",
    program: "app.js",
    breakpoints: [
      { file: "app.js", line: 3, status: "verified", id: 1 },
      { file: "app.js", line: 9, status: "unverified", message: "Unbound breakpoint" },
    ],
  });
  const state = await d.data<Record<string, unknown>>("getDebugState", {});
  expect(state).toMatchObject({ sessionId: "vscode-1", state: "stopped", threads: [{ id: 1, name: "main" }], scopes: [{ name: "Local" }] });
  // A headless session's id stays headless.
  expect((await d.failure("getDebugState", { sessionId: "debug-4" })).code).toBe("debug_session_not_found");
});

it("an inline configuration may not pick its executable, run a task, or name paths outside the workspace", async () => {
  const sent: unknown[] = [];
  const d = await dispatcher(root, { extension: connectedExtension(fakeVSCode(sent)).client });
  const launch = { type: "node", request: "launch", program: "app.js" };
  const refused = await d.failure("startDebugging", { configuration: { ...launch, runtimeExecutable: "/bin/sh" } });
  expect(refused).toMatchObject({ code: "command_refused", error: expect.stringMatching(/may not set runtimeExecutable/) });
  expect((await d.failure("startDebugging", { configuration: { ...launch, preLaunchTask: "build" } })).code).toBe("command_refused");
  expect((await d.failure("startDebugging", { configuration: { ...launch, args: ["/etc/passwd"] } })).code).toBe("command_refused");
  expect((await d.failure("startDebugging", { configuration: { ...launch, program: "../outside.js" } })).code).not.toBe(undefined);
  expect((await d.failure("startDebugging", { configuration: { ...launch, env: { NODE_OPTIONS: "-r x" } } })).code).toBe("command_refused");
  expect(sent).toEqual([]);
});

it("an extension older than protocol 1.4 leaves the debugger headless; an inline configuration then says it needs VS Code", async () => {
  const old = new FakeExtension(extensionClient(), fakeVSCode([])).connect({ protocolVersion: "1.3.0" });
  const d = await dispatcher(root, { extension: old.client });
  expect(await d.failure("startDebugging", { configuration: { type: "node", request: "launch", program: "app.js" } })).toMatchObject({
    code: "not_supported",
    error: expect.stringMatching(/inline configuration needs VS Code/),
  });
  expect(old.received.some((r) => r.method.startsWith("extension/debug"))).toBe(false);
});

it("a call the headless debugger answers (its session's id, or VS Code without a session) names headless in _meta", async () => {
  const backendOf = (r: { _meta?: Record<string, unknown> | undefined }) => r._meta?.["claude-ide-bridge/backend"];
  const withSession = await dispatcher(root, { extension: connectedExtension(fakeVSCode([])).client });
  expect(backendOf(await withSession.call("getDebugState", {}))).toBe("extension");
  expect(backendOf(await withSession.call("getDebugState", { sessionId: "vscode-1" }))).toBe("extension");
  const headlessId = await withSession.call("getDebugState", { sessionId: "debug-4" });
  expect(headlessId.isError).toBe(true);
  expect(backendOf(headlessId)).toBe("headless");

  const none = connectedExtension({ ...fakeVSCode([]), "extension/debugSessions": () => ({ sessions: [] }) });
  const empty = await dispatcher(root, { extension: none.client });
  for (const tool of ["getDebugState", "debugContinue", "getDebugOutput", "stopDebugging"]) {
    const result = await empty.call(tool, {});
    expect(backendOf(result), tool).toBe("headless");
    expect(result.isError, tool).toBe(true);
  }
  // Only the session list was asked of VS Code: the call itself went to the headless debugger.
  expect(new Set(none.requests().map((r) => r.method))).toEqual(new Set(["extension/debugSessions"]));
});
