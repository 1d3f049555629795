// gitStashPop: applies a stash to the working tree and drops it. On a conflict git keeps the stash
// and the error names the conflicted files.
import * as v from "valibot";
import { refuseOutside } from "../../services/git/workspace-scope.ts";
import { openRepository } from "../../services/git/repository.ts";
import { defineTool } from "../platform/define-tool.ts";

export default defineTool({
  name: "gitStashPop",
  title: "Git stash pop",
  description:
    "Restores stashed changes (default: the newest stash) into the working tree and drops the stash; on conflict the stash is kept and the files are named.",
  searchHint: "git stash pop apply restore stashed changes unshelve",
  input: v.strictObject({
    index: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(10_000), v.description("Stash index from gitStashList (0: newest).")),
      0,
    ),
  }),
  output: v.object({ ref: v.string(), message: v.string() }),
  annotations: { readOnlyHint: false, destructiveHint: false },
  async handler(input, ctx) {
    const repo = await openRepository(ctx, "write");
    const ref = `stash@{${input.index}}`;
    const message = (await repo.output(["log", "--walk-reflogs", "--max-count=1", "--format=%gs", "--end-of-options", ref])).trim();
    if (repo.prefix !== "") {
      const names = await repo.output(["stash", "show", "--no-ext-diff", "--no-textconv", "--name-only", "-z", "--include-untracked", ref]);
      refuseOutside(repo, { what: `Popping ${ref}`, paths: names.split("\0") });
    }
    await repo.run(["stash", "pop", "--end-of-options", ref]);
    ctx.events.publish("git.stash", { action: "pop", ref });
    return { ref, message };
  },
});
