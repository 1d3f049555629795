// gitStashList: the stash, newest first, as gitStashPop's index wants it.
import * as v from "valibot";
import { records } from "../../services/git/records.ts";
import { openRepository } from "../../services/git/repository.ts";
import { defineTool } from "../platform/define-tool.ts";

const MAX_LISTED = 100;

export default defineTool({
  name: "gitStashList",
  title: "Git stash list",
  description: `Lists stashed changes, newest first (at most ${MAX_LISTED}): index (for gitStashPop), the branch they were stashed on and their message, and when.`,
  searchHint: "list stashes: git stash list, saved changes, shelved work in progress",
  input: v.strictObject({}),
  output: v.object({
    stashes: v.array(
      v.object({
        index: v.number(),
        message: v.pipe(v.string(), v.description('As git writes it: "On <branch>: <message>" or "WIP on <branch>: <commit>".')),
        date: v.string(),
      }),
    ),
  }),
  annotations: { readOnlyHint: true },
  async handler(_input, ctx) {
    const repo = await openRepository(ctx, "read");
    const out = await repo.output(["stash", "list", `--max-count=${MAX_LISTED}`, "--format=%gd%x1f%gs%x1f%ci%x1e"]);
    const stashes = records(out).map(([ref = "", message = "", date = ""]) => ({
      index: Number(/\{(\d+)\}/.exec(ref)?.[1] ?? -1),
      message,
      date,
    }));
    return { stashes };
  },
});
