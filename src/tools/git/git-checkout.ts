// gitCheckout: switches to a branch (a remote one of that name gets a local tracking branch), or
// creates one from HEAD or a base. `git switch` never discards local changes: a switch that would
// is refused with git's message.
import * as v from "valibot";
import { currentBranch, headCommit } from "../../services/git/head.ts";
import { branchName, revision } from "../../services/git/refs.ts";
import { changedBetween, refuseOutside } from "../../services/git/workspace-scope.ts";
import { openRepository } from "../../services/git/repository.ts";
import { defineTool } from "../platform/define-tool.ts";
import { RefInput } from "./git-inputs.ts";

export default defineTool({
  name: "gitCheckout",
  title: "Git checkout",
  description:
    "Switches to a branch, or with create makes a new one from HEAD or a base and switches to it. Refuses when local changes would be lost (stash them first).",
  searchHint: "git checkout switch branch create new branch change branch",
  input: v.strictObject({
    branch: v.pipe(v.string(), v.minLength(1), v.maxLength(255), v.description('Branch to switch to or create, e.g. "feature/login".')),
    create: v.optional(v.pipe(v.boolean(), v.description("Create the branch (it must not exist yet).")), false),
    base: v.optional(RefInput("With create: start point (default HEAD).")),
  }),
  output: v.object({
    branch: v.string(),
    previous: v.pipe(v.nullable(v.string()), v.description("The branch before; null when HEAD was detached.")),
    commit: v.pipe(v.nullable(v.string()), v.description("The branch's short hash; null for a new branch before the first commit.")),
    created: v.boolean(),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false },
  async handler(input, ctx) {
    const branch = branchName(input.branch);
    const base = input.base === undefined ? [] : [revision(input.base, "base")];
    const repo = await openRepository(ctx, "write");
    const previous = await currentBranch(repo);
    // A switch rewrites files across the whole repository: refused when that reaches beside the workspace.
    const target = input.create ? base[0] : branch;
    if (repo.prefix !== "" && target !== undefined && (await headCommit(repo)) !== null) {
      refuseOutside(repo, { what: `Switching to ${target}`, paths: await changedBetween(repo, { from: "HEAD", to: target }) });
    }
    // The new name travels inside its option (`--create=<name>`), the start point after
    // --end-of-options: neither can be read as another option.
    const args = input.create ? ["switch", `--create=${branch}`, "--end-of-options", ...base] : ["switch", "--end-of-options", branch];
    await repo.run(args);
    const commit = await headCommit(repo);
    ctx.events.publish("git.checkout", { branch, previous, created: input.create });
    return { branch, previous, commit, created: input.create };
  },
});
