// gitStash: sets the working tree's changes aside (staged and unstaged, with includeUntracked new
// files too), leaving a clean tree; gitStashPop brings them back.
import * as v from "valibot";
import { ToolError } from "../../errors.ts";
import { openRepository } from "../../services/git/repository.ts";
import { defineTool } from "../platform/define-tool.ts";
import { LineInput } from "./git-inputs.ts";

export default defineTool({
  name: "gitStash",
  title: "Git stash",
  description:
    "Stashes the uncommitted changes (staged and unstaged; includeUntracked adds new files) and leaves a clean working tree; gitStashPop restores them.",
  searchHint: "git stash my changes save aside shelve put away clean working tree temporarily",
  input: v.strictObject({
    message: v.optional(LineInput("A note to recognise the stash by in gitStashList.")),
    includeUntracked: v.optional(v.pipe(v.boolean(), v.description("Also stash untracked files.")), false),
  }),
  output: v.object({ ref: v.string(), message: v.string() }),
  annotations: { readOnlyHint: false, destructiveHint: false },
  async handler(input, ctx) {
    const repo = await openRepository(ctx, "write");
    const args = [
      "stash",
      "push",
      ...(input.includeUntracked ? ["--include-untracked"] : []),
      ...(input.message === undefined ? [] : [`--message=${input.message}`]),
      // With the workspace a subfolder of its repository, only its own changes (git runs in it).
      ...(repo.prefix === "" ? [] : ["--", "."]),
    ];
    const result = await repo.run(args, { literalPathspecs: false });
    if (/No local changes to save/.test(result.stdout + result.stderr)) {
      throw new ToolError("nothing_to_stash", "There are no local changes to stash", {
        suggestion: input.includeUntracked ? "The working tree is clean." : "Only untracked files? Pass includeUntracked: true.",
      });
    }
    const message = (await repo.output(["stash", "list", "--max-count=1", "--format=%gs"])).trim();
    ctx.events.publish("git.stash", { action: "push", ref: "stash@{0}" });
    return { ref: "stash@{0}", message };
  },
});
