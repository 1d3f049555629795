// gitListBranches: local branches (with upstream and ahead/behind) and, on request, remote ones;
// most recently committed first.
import * as v from "valibot";
import { BRANCH_FORMAT, parseBranches } from "../../services/git/branch-list.ts";
import { openRepository } from "../../services/git/repository.ts";
import { defineTool } from "../platform/define-tool.ts";

const MAX_BRANCHES = 300;

const Branch = v.object({
  name: v.string(),
  commit: v.string(),
  date: v.pipe(v.string(), v.description("Date of the branch's last commit.")),
  subject: v.string(),
  upstream: v.optional(v.string()),
  ahead: v.optional(v.number()),
  behind: v.optional(v.number()),
  upstreamGone: v.optional(v.pipe(v.boolean(), v.description("The upstream branch was deleted on the remote."))),
});

export default defineTool({
  name: "gitListBranches",
  title: "Git branches",
  description:
    "Lists local branches, newest first, with the current one, each branch's upstream and ahead/behind counts; with includeRemote also the remote-tracking branches.",
  searchHint: "git branches list local remote current branch upstream tracking",
  input: v.strictObject({
    includeRemote: v.optional(v.pipe(v.boolean(), v.description("Also list remote-tracking branches.")), false),
  }),
  output: v.object({
    current: v.pipe(v.nullable(v.string()), v.description("null when HEAD is detached.")),
    branches: v.array(Branch),
    remoteBranches: v.optional(v.array(Branch)),
    omitted: v.optional(v.pipe(v.number(), v.description(`Branches left out: each list holds at most ${MAX_BRANCHES}.`))),
  }),
  annotations: { readOnlyHint: true },
  async handler(input, ctx) {
    const repo = await openRepository(ctx, "read");
    const refs = ["refs/heads", ...(input.includeRemote ? ["refs/remotes"] : [])];
    const list = parseBranches(await repo.output(["for-each-ref", "--sort=-committerdate", BRANCH_FORMAT, "--", ...refs]));
    const omitted = Math.max(0, list.local.length - MAX_BRANCHES) + Math.max(0, list.remote.length - MAX_BRANCHES);
    return {
      current: list.current,
      branches: list.local.slice(0, MAX_BRANCHES),
      ...(input.includeRemote ? { remoteBranches: list.remote.slice(0, MAX_BRANCHES) } : {}),
      ...(omitted > 0 ? { omitted } : {}),
    };
  },
});
