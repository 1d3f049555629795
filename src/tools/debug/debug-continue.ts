// debugContinue: DAP's continue on the debugged program (run-control.ts waits for the next stop or the end).
import { defineTool } from "../platform/define-tool.ts";
import { runControl, runControlInput } from "./run-control.ts";
import { OutcomeSchema } from "./stop-view.ts";

export default defineTool({
  name: "debugContinue",
  title: "Debugger: Continue",
  description:
    "Continues the stopped program until it stops again (breakpoint, exception) or ends, up to a timeout; returns where it stopped with the top frame's locals.",
  searchHint: "debugger continue resume run to next breakpoint",
  input: runControlInput,
  output: OutcomeSchema,
  // The program runs on: it is the project's code, and does what it does.
  annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
  handler: (input, ctx) => runControl("continue", input, ctx),
});
