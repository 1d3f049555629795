// debugStepOut: DAP's stepOut on the debugged program (run-control.ts waits for the next stop or the end).
import { defineTool } from "../platform/define-tool.ts";
import { runControl, runControlInput } from "./run-control.ts";
import { OutcomeSchema } from "./stop-view.ts";

export default defineTool({
  name: "debugStepOut",
  title: "Debugger: Step out",
  description: "Runs until the current function returns to its caller; returns where it stopped with the top frame's locals.",
  searchHint: "debugger step out return to caller finish function",
  input: runControlInput,
  output: OutcomeSchema,
  // The program runs on: it is the project's code, and does what it does.
  annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
  handler: (input, ctx) => runControl("stepOut", input, ctx),
});
