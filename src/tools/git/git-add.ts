// gitAdd: stages files for the next commit; without files, every change to tracked files (and with
// addUntracked, new files too) inside the workspace.
import * as v from "valibot";
import { pathspecs } from "../../services/git/pathspec.ts";
import { openRepository } from "../../services/git/repository.ts";
import { stagedFiles } from "../../services/git/staged-files.ts";
import { defineTool } from "../platform/define-tool.ts";
import { PathsInput } from "./git-inputs.ts";

const MAX_LISTED = 500;

export default defineTool({
  name: "gitAdd",
  title: "Git add",
  description:
    "Stages files for the next commit. Without files: all changes to tracked files (git add -u); addUntracked also stages new files. Returns what is staged now.",
  searchHint: "git add stage files index prepare commit track new files",
  input: v.strictObject({
    files: PathsInput,
    addUntracked: v.optional(v.pipe(v.boolean(), v.description("Without files: also stage new, untracked files (git add -A).")), false),
  }),
  output: v.object({
    staged: v.pipe(v.array(v.string()), v.description(`Every path staged now (at most ${MAX_LISTED} listed).`)),
    count: v.pipe(v.number(), v.description("How many paths are staged.")),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
  async handler(input, ctx) {
    const repo = await openRepository(ctx, "write");
    const what =
      input.files === undefined
        ? [input.addUntracked ? "--all" : "--update", "--", "."]
        : ["--", ...(await pathspecs(ctx.fs, input.files))];
    await repo.run(["add", ...what]);
    const staged = await stagedFiles(repo);
    ctx.events.publish("git.add", { staged: staged.length });
    return { staged: staged.slice(0, MAX_LISTED), count: staged.length };
  },
});
