// The debug toolset: a headless debugger over the Debug Adapter Protocol (src/dap/), one adapter per
// language (debugpy for Python, lldb's for C/C++). Sessions belong to the MCP session that started
// them (debug-sessions.ts) and run the project's code under runCommand's path and environment rules.
// With the VS Code extension connected (protocol 1.4), the same tools drive VS Code's debugger
// (vscode/): its launch configurations, its breakpoints, its sessions; a headless session (debug-N)
// is still served headless, and an older or absent extension leaves everything headless.
import { ToolError } from "../../errors.ts";
import { ExtensionUnavailable } from "../../extension/extension-unavailable.ts";
import type { ToolContext } from "../../capabilities/context.ts";
import { DEBUG_PROTOCOL_VERSION } from "../../extension/protocol-debug.ts";
import type { Tool } from "../platform/define-tool.ts";
import { defineToolset } from "../platform/toolset.ts";
import debugContinue from "./debug-continue.ts";
import debugPause from "./debug-pause.ts";
import debugStepIn from "./debug-step-in.ts";
import debugStepOut from "./debug-step-out.ts";
import debugStepOver from "./debug-step-over.ts";
import evaluateInDebugger from "./evaluate-in-debugger.ts";
import getDebugOutput from "./get-debug-output.ts";
import getDebugState from "./get-debug-state.ts";
import setDebugBreakpoints from "./set-debug-breakpoints.ts";
import startDebugging from "./start-debugging.ts";
import stopDebugging from "./stop-debugging.ts";
import { breakpointsInVSCode, type BreakpointsInput } from "./vscode/vscode-breakpoints.ts";
import { evaluateInVSCode, outputInVSCode, stateInVSCode } from "./vscode/vscode-inspect.ts";
import { runInVSCode, stopInVSCode } from "./vscode/vscode-run.ts";
import { isVSCodeSession } from "./vscode/vscode-sessions.ts";
import { startInVSCode, startsInVSCode, type StartInput } from "./vscode/vscode-start.ts";

type Handler = (input: unknown, ctx: ToolContext) => Promise<unknown>;

/** The tool with VS Code's handler beside its headless one (route-call.ts picks per call). */
function withVSCode(tool: Tool, viaVSCode: (headless: Handler) => Handler, when?: (input: unknown) => boolean): Tool {
  const headless = tool.handlers.headless;
  if (headless === undefined) return tool;
  return {
    ...tool,
    requires: { ...tool.requires, extension: "fallback", extensionProtocol: DEBUG_PROTOCOL_VERSION },
    handlers: { headless, extension: viaVSCode(headless), extensionWhen: when },
  };
}

/**
 * A session's tool: VS Code's sessions (vscode-N) there; a headless one's id, or none in VS Code,
 * headless. The headless cases go to the router as headless (the id is decided before the call; no
 * session in VS Code is said by ExtensionUnavailable), so the result's `_meta` names the debugger
 * that answered.
 */
function sessionTool(tool: Tool, run: (input: { sessionId?: string }, ctx: ToolContext) => Promise<unknown>): Tool {
  const inVSCode = (input: unknown) => {
    const id = (input as { sessionId?: string }).sessionId;
    return id === undefined || isVSCodeSession(id);
  };
  return withVSCode(
    tool,
    () => async (input, ctx) => {
      if ((input as { sessionId?: string }).sessionId === undefined) {
        const sessions = await ctx.extension.request("extension/debugSessions", {}, { signal: ctx.signal });
        if (sessions.sessions.length === 0)
          throw new ExtensionUnavailable("not_in_vscode", "VS Code has no debug session; the headless debugger's sessions answer");
      }
      return run(input as { sessionId?: string }, ctx);
    },
    inVSCode,
  );
}

const start = withVSCode(
  {
    ...startDebugging,
    handlers: {
      ...startDebugging.handlers,
      headless: async (input, ctx) => {
        if ((input as StartInput).configuration !== undefined) {
          throw new ToolError(
            "not_supported",
            "An inline configuration needs VS Code: no VS Code extension (protocol 1.4 or later) is connected",
            {
              suggestion:
                "Give program (or test, or configName) instead, or connect VS Code (claude-ide-bridge install-extension, then reload it).",
            },
          );
        }
        return startDebugging.handlers.headless?.(input, ctx);
      },
    },
  },
  () => (input, ctx) => startInVSCode(input as StartInput, ctx),
  (input) => startsInVSCode(input as StartInput),
);

const breakpoints = withVSCode(setDebugBreakpoints, (headless) => async (input, ctx) => {
  // The headless tool checks the input and keeps the breakpoints for headless sessions.
  const kept = (await headless(input, ctx)) as { breakpoints: []; sessions: string[] };
  return breakpointsInVSCode(input as BreakpointsInput, ctx, kept);
});

export const debugToolset = defineToolset({
  name: "debug",
  purpose: "debugger: breakpoints, steps, variables",
  tools: [
    start,
    breakpoints,
    sessionTool(getDebugState, stateInVSCode),
    sessionTool(evaluateInDebugger, (input, ctx) => evaluateInVSCode(input as { expression: string }, ctx)),
    sessionTool(debugContinue, (input, ctx) => runInVSCode("continue", input, ctx)),
    sessionTool(debugStepOver, (input, ctx) => runInVSCode("next", input, ctx)),
    sessionTool(debugStepIn, (input, ctx) => runInVSCode("stepIn", input, ctx)),
    sessionTool(debugStepOut, (input, ctx) => runInVSCode("stepOut", input, ctx)),
    sessionTool(debugPause, (input, ctx) => runInVSCode("pause", input, ctx)),
    sessionTool(getDebugOutput, outputInVSCode),
    sessionTool(stopDebugging, stopInVSCode),
  ],
});
