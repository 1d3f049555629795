// onboard-project: a first orientation in the workspace: the project, its layout and recent work.
import { Assembly } from "../assembly.ts";
import { definePrompt } from "../define-prompt.ts";

export default definePrompt({
  name: "onboard-project",
  title: "Get to know this project",
  description: "Orients a newcomer: what the project is, how it is laid out, how to build and test it, and what changed lately.",
  arguments: [],
  async build(_args, ctx) {
    const a = new Assembly(ctx);
    await a.add("Project", { tool: "getProjectInfo" });
    await a.add("Project context", { tool: "getProjectContext" });
    await a.add("File tree", { tool: "getFileTree", args: { maxDepth: 2, maxEntries: 200 } });
    return a.render(`Give a newcomer a tour of this project: what it does, its main parts and where they live, how to build, run and test it, and where to start reading.
Read the key files (readFile) before describing them; mark what you inferred rather than read.`);
  },
});
