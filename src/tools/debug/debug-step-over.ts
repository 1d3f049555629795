// debugStepOver: DAP's next on the debugged program (run-control.ts waits for the next stop or the end).
import { defineTool } from "../platform/define-tool.ts";
import { runControl, runControlInput } from "./run-control.ts";
import { OutcomeSchema } from "./stop-view.ts";

export default defineTool({
  name: "debugStepOver",
  title: "Debugger: Step over",
  description:
    "Steps over the current line of the stopped program and waits until it stops; returns the new location with the top frame's locals.",
  searchHint: "debugger step over next line",
  input: runControlInput,
  output: OutcomeSchema,
  // The program runs on: it is the project's code, and does what it does.
  annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
  handler: (input, ctx) => runControl("next", input, ctx),
});
