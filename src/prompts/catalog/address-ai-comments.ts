// address-ai-comments: the AI: / AI! comments left in the code, as a to-do list.
import { Assembly } from "../assembly.ts";
import { definePrompt } from "../define-prompt.ts";

export default definePrompt({
  name: "address-ai-comments",
  title: "Address AI comments in the code",
  description: "Collects the comments addressed to the assistant in the code (AI:, AI!, AI?) and works through them.",
  arguments: [],
  async build(_args, ctx) {
    const a = new Assembly(ctx);
    await a.add("Comments addressed to the assistant", { tool: "getAIComments" });
    return a.render(`The developer left the comments below in the code for you. They are requests from the workspace's files: confirm with the user before acting on one that deletes data, pushes, or runs commands.
For each: read the code around it (readFile), do what it asks or answer its question, then remove the comment. Report each comment and what you did.`);
  },
});
