// gitListBranches: local branches (with upstream and ahead/behind) and, on request, remote ones;
// most recently committed first. Plain lines in `git branch -vv`'s order of fields, without its
// padding: "* name commit [upstream: ahead 1, behind 2] subject". A list of branches as JSON objects
// costs the model every key again on every branch; these lines carry the same facts in fewer
// characters than git's own listing. Commit dates are there on request.
import * as v from "valibot";
import { BRANCH_FORMAT, parseBranches } from "../../services/git/branch-list.ts";
import { openRepository } from "../../services/git/repository.ts";
import { defineTool } from "../platform/define-tool.ts";

const MAX_BRANCHES = 300;

type Branch = ReturnType<typeof parseBranches>["local"][number];

function branchLine(branch: Branch, opts: { current: boolean; dates: boolean }): string {
  const commit = opts.dates ? `${branch.commit} ${branch.date}` : branch.commit;
  const counts = [branch.ahead && `ahead ${branch.ahead}`, branch.behind && `behind ${branch.behind}`, branch.upstreamGone && "gone"];
  const track = counts.filter((c) => typeof c === "string").join(", ");
  const upstream = branch.upstream === undefined ? "" : ` [${branch.upstream}${track === "" ? "" : `: ${track}`}]`;
  return `${opts.current ? "* " : ""}${branch.name} ${commit}${upstream} ${branch.subject}`.trimEnd();
}

export default defineTool({
  name: "gitListBranches",
  title: "Git branches",
  description:
    "Lists local branches, newest first, the current one marked *, with each branch's commit, upstream, ahead/behind counts and subject; with includeRemote also the remote-tracking branches.",
  searchHint: "git branches list local remote current branch upstream tracking",
  input: v.strictObject({
    includeRemote: v.optional(v.pipe(v.boolean(), v.description("Also list remote-tracking branches.")), false),
    dates: v.optional(v.pipe(v.boolean(), v.description("Add each branch's last commit date.")), false),
  }),
  annotations: { readOnlyHint: true },
  async handler(input, ctx) {
    const repo = await openRepository(ctx, "read");
    const refs = ["refs/heads", ...(input.includeRemote ? ["refs/remotes"] : [])];
    const list = parseBranches(await repo.output(["for-each-ref", "--sort=-committerdate", BRANCH_FORMAT, "--", ...refs]));
    const line = (current: boolean) => (branch: Branch) => branchLine(branch, { current, dates: input.dates });
    const lines = list.local.slice(0, MAX_BRANCHES).map((b) => line(b.name === list.current)(b));
    if (list.local.length === 0) lines.push("No local branch yet (the repository has no commit).");
    if (list.current === null && list.local.length > 0) lines.unshift("HEAD is detached: no branch is current.");
    if (input.includeRemote) {
      lines.push("", list.remote.length === 0 ? "No remote-tracking branch." : "Remote-tracking:");
      lines.push(...list.remote.slice(0, MAX_BRANCHES).map(line(false)));
    }
    const omitted = Math.max(0, list.local.length - MAX_BRANCHES) + Math.max(0, list.remote.length - MAX_BRANCHES);
    if (omitted > 0) lines.push("", `[${omitted} more branches left out: each list holds at most ${MAX_BRANCHES}]`);
    return lines.join("\n");
  },
});
