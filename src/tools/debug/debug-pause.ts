// debugPause: DAP's pause on the debugged program (run-control.ts waits for the next stop or the end).
import { defineTool } from "../platform/define-tool.ts";
import { runControl, runControlInput } from "./run-control.ts";
import { OutcomeSchema } from "./stop-view.ts";

export default defineTool({
  name: "debugPause",
  title: "Debugger: Pause",
  description: "Pauses the running program and waits until it stops; returns where it stopped with the top frame's locals.",
  searchHint: "debugger pause break interrupt running program",
  input: runControlInput,
  output: OutcomeSchema,
  // The program runs on: it is the project's code, and does what it does.
  annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
  handler: (input, ctx) => runControl("pause", input, ctx),
});
