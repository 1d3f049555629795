// evaluateInDebugger: evaluates an expression in a stopped program's frame. The expression runs in
// the program (a call may change its state), and a result that looks like a secret is masked.
import type { DebugProtocol } from "@vscode/debugprotocol";
import * as v from "valibot";
import { ToolError } from "../../errors.ts";
import { DapRequestError } from "../../dap/dap-connection.ts";
import { defineTool } from "../platform/define-tool.ts";
import { DEBUG_SESSIONS } from "./debug-sessions.ts";
import { VariableSchema, evaluationView, firstThread } from "./stop-view.ts";

export default defineTool({
  name: "evaluateInDebugger",
  title: "Evaluate in debugger",
  description:
    "Evaluates an expression in the stopped program's frame (default: the top one) and returns its value, type and children. It runs in the program.",
  searchHint: "evaluate expression debugger watch print variable value repl",
  input: v.strictObject({
    expression: v.pipe(v.string(), v.minLength(1), v.maxLength(10_000), v.description("In the program's language.")),
    frameId: v.optional(v.pipe(v.number(), v.integer(), v.description("From getDebugState's stack (default: the top frame)."))),
    sessionId: v.optional(v.pipe(v.string(), v.description("Default: your latest session."))),
    depth: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(4), v.description("Levels of children (default 1)."))),
  }),
  output: v.object({
    result: v.string(),
    type: v.optional(v.string()),
    children: v.optional(v.array(VariableSchema)),
    more: v.optional(v.number()),
  }),
  annotations: { readOnlyHint: false, destructiveHint: true },
  async handler(input, ctx) {
    const { session } = ctx.state(DEBUG_SESSIONS).get(ctx.session, input.sessionId);
    const state = session.runState;
    if (state.kind !== "stopped") {
      throw new ToolError(
        "invalid_arguments",
        `${session.id} is ${state.kind}, not stopped: expressions are evaluated in a stopped frame`,
        {
          suggestion: "Stop it first (a breakpoint, or debugPause).",
        },
      );
    }
    let frameId = input.frameId;
    if (frameId === undefined) {
      const threadId = state.stop.threadId ?? (await firstThread(session)) ?? 0;
      const st = await session.connection.request<DebugProtocol.StackTraceResponse>("stackTrace", { threadId, startFrame: 0, levels: 1 });
      frameId = st.body.stackFrames[0]?.id;
    }
    const r = await session.connection
      .request<DebugProtocol.EvaluateResponse>("evaluate", {
        expression: input.expression,
        ...(frameId === undefined ? {} : { frameId }),
        context: "repl",
      })
      .catch((err: unknown) => {
        if (err instanceof DapRequestError && err.reason === "failed") {
          throw new ToolError("tool_failed", `Evaluating ${JSON.stringify(input.expression)} failed: ${err.message}`, {
            suggestion: "Check the expression against the frame's variables (getDebugState).",
          });
        }
        throw err;
      });
    return evaluationView(session, { expression: input.expression, body: r.body, depth: input.depth });
  },
});
