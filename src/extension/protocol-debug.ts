// The requests of protocol 1.4: VS Code's debugger (vscode.debug and each session's customRequest),
// kept beside protocol.ts, which spreads them into BRIDGE_REQUESTS. The extension watches every
// session's DAP traffic (a debug adapter tracker), so it knows when a program stops or ends and what
// the adapter said of each breakpoint; the bridge builds its answers from a few read-only DAP
// requests (DEBUG_READ_COMMANDS) and the run controls, nothing else.
import * as v from "valibot";
import { MAX_WAIT_MS } from "./protocol-ide.ts";

export const DEBUG_PROTOCOL_VERSION = "1.4.0";

const str = v.string();
const count = v.pipe(v.number(), v.integer(), v.minValue(0));
const waitMs = v.pipe(count, v.maxValue(MAX_WAIT_MS));

/** The DAP requests the bridge may send through a session: reading state, and evaluate (evaluateInDebugger). */
export const DEBUG_READ_COMMANDS = ["threads", "stackTrace", "scopes", "variables", "evaluate", "exceptionInfo"] as const;
export const DEBUG_RUN_COMMANDS = ["continue", "next", "stepIn", "stepOut", "pause"] as const;

/** Where a session is, as the adapter's events said: stopped (why), running, or ended. */
export const WireRunState = v.object({
  kind: v.picklist(["running", "stopped", "ended"]),
  reason: v.optional(str),
  threadId: v.optional(v.number()),
  description: v.optional(str),
  text: v.optional(str),
  exitCode: v.optional(v.number()),
  why: v.optional(str),
});
export type WireRunState = v.InferOutput<typeof WireRunState>;

export const WireDebugSession = v.object({
  id: str,
  name: str,
  /** The configuration's type ("pwa-node", "debugpy"...). */
  type: str,
  state: WireRunState,
  /** vscode.debug.activeDebugSession. */
  active: v.boolean(),
  startedByBridge: v.boolean(),
  /** What the adapter said it supports (its initialize response), the flags the bridge reads. */
  supportsExceptionInfo: v.boolean(),
  /** Characters of output the session printed so far (for the next request's `since`). */
  outputEnd: count,
});
export type WireDebugSession = v.InferOutput<typeof WireDebugSession>;

/** The adapter's verdict on one breakpoint (1-based lines), as the tracker last saw it. */
export const WireBreakpointVerdict = v.object({
  filePath: v.optional(str),
  function: v.optional(str),
  line: v.optional(count),
  verified: v.boolean(),
  boundLine: v.optional(count),
  message: v.optional(str),
  id: v.optional(v.number()),
});
export type WireBreakpointVerdict = v.InferOutput<typeof WireBreakpointVerdict>;

const SessionResult = v.object({
  session: WireDebugSession,
  /** What the program printed since the request started (the last 2000 characters). */
  output: v.optional(str),
});

export const DEBUG_REQUESTS = {
  /** Starts a launch configuration (by name, from the folder's launch.json) or an inline one; waits for the first stop or the end. */
  "extension/debugStart": {
    params: v.object({
      name: v.optional(str),
      configuration: v.optional(v.record(str, v.unknown())),
      waitMs,
      /** --vscode-allow-task: a configuration's preLaunchTask/postDebugTask must be one of them ("*" allows every task). */
      allowTasks: v.array(str),
      /** --pass-env: variables the program keeps although they look like secrets. */
      passEnv: v.array(str),
    }),
    result: v.object({ ...SessionResult.entries, breakpoints: v.array(WireBreakpointVerdict) }),
  },
  "extension/debugSessions": { params: v.object({}), result: v.object({ sessions: v.array(WireDebugSession) }) },
  /** A run control; waits up to waitMs for the program to stop again or end. */
  "extension/debugControl": {
    params: v.object({ sessionId: str, command: v.picklist(DEBUG_RUN_COMMANDS), threadId: v.optional(v.number()), waitMs }),
    result: SessionResult,
  },
  /** One of DEBUG_READ_COMMANDS through the session's customRequest; the response's body. */
  "extension/debugRequest": {
    params: v.object({ sessionId: str, command: v.picklist(DEBUG_READ_COMMANDS), args: v.record(str, v.unknown()) }),
    result: v.object({ body: v.unknown() }),
  },
  "extension/debugStop": { params: v.object({ sessionId: str }), result: v.object({ session: WireDebugSession }) },
  /**
   * Replaces a file's source breakpoints in VS Code (and/or the function breakpoints); waits up to
   * waitMs for each running session's adapter to answer, and returns its verdicts.
   */
  "extension/setBreakpoints": {
    params: v.object({
      filePath: v.optional(str),
      breakpoints: v.optional(
        v.array(v.object({ line: count, condition: v.optional(str), hitCondition: v.optional(str), logMessage: v.optional(str) })),
      ),
      functions: v.optional(v.array(v.object({ name: str, condition: v.optional(str), hitCondition: v.optional(str) }))),
      waitMs,
    }),
    result: v.object({ verdicts: v.array(WireBreakpointVerdict), sessions: v.array(str) }),
  },
  /** The program's output from `since` (characters), at most maxChars. */
  "extension/debugOutput": {
    params: v.object({ sessionId: str, since: count, maxChars: count }),
    result: v.object({ text: str, next: count, dropped: v.boolean(), more: v.boolean() }),
  },
} as const;

/** Pushed when a VS Code debug session starts or ends (the bus's debug.session). */
export const DebugSessionPush = v.object({
  phase: v.picklist(["start", "end"]),
  id: str,
  name: str,
  type: str,
  exitCode: v.optional(v.number()),
});
