// The extension in a REAL VS Code: one code-server 4.100.3 with headless Chromium (the harness is
// test/helpers/vscode-e2e.ts) for every case, since each code-server costs the suite about half a
// minute. The cases live in test/e2e/vscode-cases/, in the order they run: the editor side (VS Code's
// diagnostics, navigation, selection, doctor, openDiff, protocol 1.3, notebooks while no kernel is
// installed), terminals (shell integration, and a terminal without it), VS Code itself (commands,
// tasks, settings, decorations, the clipboard), the debugger through js-debug (a launch
// configuration, conditions, logpoints, hit counts, steps, a pause, session events through
// automation's hooks); then the extension host is killed (tools fall back or fail at once, without waiting out the request timeout)
// and the window reloaded with a test kernel installed (everything back), and a notebook cell runs
// in that kernel with the user's consent given and refused in VS Code's dialog.
import { execFileSync } from "node:child_process";
import { expect, it } from "vitest";
import { DEFAULT_TIMEOUT_MS as EXTENSION_REQUEST_TIMEOUT_MS } from "../../src/extension/protocol.ts";
import { toolErrorCode } from "../helpers/tool-error.ts";
import { CONNECT_TIMEOUT_MS, textOf, useVSCodeE2E, waitUntil } from "../helpers/vscode-e2e.ts";
import { DEBUG_BRIDGE_ARGS, DEBUG_EVENTS_POLICY, DEBUG_FILES, debuggerCases, useClaudeStandIn } from "./vscode-cases/debugger.ts";
import { EDITOR_FILES, editorCases } from "./vscode-cases/editor.ts";
import { KERNEL_FILES, kernelCases, TEST_KERNEL } from "./vscode-cases/notebook-kernel.ts";
import { TERMINAL_FILES, terminalCases } from "./vscode-cases/terminals.ts";
import { WORKBENCH_BRIDGE_ARGS, WORKBENCH_FILES, workbenchCases } from "./vscode-cases/workbench.ts";

const claude = useClaudeStandIn();
const vs = useVSCodeE2E({
  name: "ide",
  files: { ...EDITOR_FILES, ...TERMINAL_FILES, ...WORKBENCH_FILES, ...DEBUG_FILES, ...KERNEL_FILES },
  // The cases' polls call tools several times a second, past the default limits a minute.
  bridgeArgs: [...WORKBENCH_BRIDGE_ARGS, ...DEBUG_BRIDGE_ARGS, "--tool-rate-limit", "10000", "--request-rate-limit", "100000"],
  bridgeEnv: () => claude.env(),
  automationPolicy: DEBUG_EVENTS_POLICY,
  env: {
    // A user's secret in VS Code's environment: terminals the bridge creates must not have it.
    E2E_API_TOKEN: "e2e-secret-value",
    NOTEBOOK_TEST_KERNEL_PYTHON: execFileSync("python3", ["-c", "import sys; print(sys.executable)"], { encoding: "utf8" }).trim(),
  },
});

editorCases(vs);
terminalCases(vs);
workbenchCases(vs);
debuggerCases(vs, claude);

it("the extension host killed: tools fall back or fail at once, not after the extension's request timeout; restarted (with a kernel installed meanwhile), everything is back", async () => {
  // The test kernel now, after the cases that need a VS Code without kernels: the reloaded window has it.
  await vs.installExtension(TEST_KERNEL);
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
  // What is guarded: neither waits for the gone extension's answer (its request timeout). Both take
  // well under a second on a quiet machine, but this file runs beside code-server and chromium, and
  // a loaded machine stretches any call: half the timeout tells the two apart under any load.
  expect(vs.timings.requiredToolFailureMs).toBeLessThan(EXTENSION_REQUEST_TIMEOUT_MS / 2);
  expect(vs.timings.fallbackToolMs).toBeLessThan(EXTENSION_REQUEST_TIMEOUT_MS / 2);
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

kernelCases(vs);
