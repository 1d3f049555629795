// debug-error: an error message traced to where it comes from in the code.
import { Assembly } from "../assembly.ts";
import { definePrompt } from "../define-prompt.ts";

export default definePrompt({
  name: "debug-error",
  title: "Debug an error message",
  description: "Traces an error message or stack trace to the code that raises it and finds the cause.",
  arguments: [{ name: "error", description: "The error message (or its distinctive part)", required: true }],
  async build(args, ctx) {
    const error = (args.error ?? "").trim();
    const a = new Assembly(ctx);
    a.quote("The error", error, { source: "the user's argument" });
    // The distinctive part of a message: its first line, without numbers and quoted values.
    const needle =
      (error.split("\n")[0] ?? "")
        .replace(/["'`].*?["'`]|\d+/g, " ")
        .trim()
        .split(/\s{2,}/)[0]
        ?.slice(0, 80) ?? "";
    if (needle.length >= 4)
      await a.add("Where the code mentions it", { tool: "searchWorkspace", args: { pattern: needle, literal: true, maxResults: 30 } });
    else a.note("the message is too short to search for.");
    return a.render(`Find the cause of the error above. Start from where the code raises it (the search below, or the stack trace's frames with readFile), then walk back to the input or state that triggers it (getCallHierarchy, findReferences).
Explain the cause with evidence, propose a fix, and say how to verify it (a test with runTests, or the command that failed).`);
  },
});
