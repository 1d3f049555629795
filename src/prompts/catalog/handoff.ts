// handoff: where the work stands, for the next session or a teammate.
import { Assembly } from "../assembly.ts";
import { definePrompt } from "../define-prompt.ts";

export default definePrompt({
  name: "handoff",
  title: "Write a handoff note",
  description: "Writes a handoff note: the state of the work, from the previous note, the plans, the status and the latest commits.",
  arguments: [],
  async build(_args, ctx) {
    const a = new Assembly(ctx);
    await a.add("Previous handoff note", { tool: "getHandoffNote" });
    await a.add("Plans", { tool: "listPlans" });
    await a.add("Git status", { tool: "getGitStatus" });
    await a.add("Latest commits", { tool: "getGitLog", args: { limit: 10 } });
    return a.render(`Write a handoff note for whoever continues this work: what was done, what is in progress (uncommitted files), what is next, and the traps to avoid.
Keep it under 40 lines and concrete (files, commands). Save it with setHandoffNote once the user agrees.`);
  },
});
