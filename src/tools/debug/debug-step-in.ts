// debugStepIn: DAP's stepIn on the debugged program (run-control.ts waits for the next stop or the end).
import { defineTool } from "../platform/define-tool.ts";
import { runControl, runControlInput } from "./run-control.ts";
import { OutcomeSchema } from "./stop-view.ts";

export default defineTool({
  name: "debugStepIn",
  title: "Debugger: Step into",
  description: "Steps into the call on the current line and waits until it stops; returns the new location with the top frame's locals.",
  searchHint: "debugger step into function call",
  input: runControlInput,
  output: OutcomeSchema,
  // The program runs on: it is the project's code, and does what it does.
  annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
  handler: (input, ctx) => runControl("stepIn", input, ctx),
});
