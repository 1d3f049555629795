// The debug toolset: a headless debugger over the Debug Adapter Protocol (src/dap/), one adapter per
// language (debugpy for Python, lldb's for C/C++). Sessions belong to the MCP session that started
// them (debug-sessions.ts) and run the project's code under runCommand's path and environment rules.
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

export const debugToolset = defineToolset({
  name: "debug",
  purpose: "debugger: breakpoints, steps, variables",
  tools: [
    startDebugging,
    setDebugBreakpoints,
    getDebugState,
    evaluateInDebugger,
    debugContinue,
    debugStepOver,
    debugStepIn,
    debugStepOut,
    debugPause,
    getDebugOutput,
    stopDebugging,
  ],
});
