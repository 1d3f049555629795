// What a branch did since it forked from its base: its commits (oldest first) and the files it
// changed with their line counts, read through the bridge's one git runner. The base is the one
// given, else the first of the remote's main branches (origin/HEAD's, main, master) that exists,
// remote-tracking before local.
import { ToolError } from "../../errors.ts";
import type { ToolContext } from "../../capabilities/context.ts";
import { currentBranch } from "../git/head.ts";
import { records } from "../git/records.ts";
import { revision } from "../git/refs.ts";
import { mainBranches } from "../git/remotes.ts";
import { openRepository, type Repository } from "../git/repository.ts";
import type { BranchStory } from "./pr-templates.ts";

const MAX_COMMITS = 100;

export async function branchStory(ctx: ToolContext, opts: { base: string | undefined }): Promise<BranchStory> {
  const repo = await openRepository(ctx, "read");
  const branch = (await currentBranch(repo)) ?? "HEAD";
  const base = opts.base === undefined ? await defaultBase(repo, branch) : revision(opts.base, "base");
  const mergeBase = (await repo.run(["merge-base", "--end-of-options", base, "HEAD"], { okExitCodes: [1] })).stdout.trim();
  if (mergeBase === "")
    throw new ToolError("invalid_ref", `${branch} has no commit in common with ${base}`, {
      suggestion: "Pass base: the branch the pull request goes into.",
    });
  const log = await repo.output([
    "log",
    "--reverse",
    `--max-count=${MAX_COMMITS}`,
    "--format=%h%x1f%s%x1f%b%x1e",
    `${mergeBase}..HEAD`,
    "--",
  ]);
  const commits = records(log).map(([hash = "", subject = "", body = ""]) => ({ hash, subject, body: body.trim() }));
  const numstat = await repo.output(["diff", "--no-ext-diff", "--no-textconv", "--numstat", "-z", "--relative", mergeBase, "HEAD", "--"]);
  return { branch, base, commits, files: parseNumstatZ(numstat) };
}

async function defaultBase(repo: Repository, branch: string): Promise<string> {
  for (const name of await mainBranches(repo, "origin")) {
    for (const ref of [`origin/${name}`, name]) {
      if (ref === branch) continue;
      const found = await repo.run(["rev-parse", "--quiet", "--verify", `${ref}^{commit}`], { okExitCodes: [1] });
      if (found.stdout.trim() !== "") return ref;
    }
  }
  throw new ToolError("invalid_ref", `No base branch found for ${branch} (no origin/main, main, origin/master or master other than it)`, {
    suggestion: "Pass base: the branch the pull request goes into.",
  });
}

/** `git diff --numstat -z`: "added\tdeleted\tpath\0" ("-" counts for binary files; renames are not asked for). */
function parseNumstatZ(out: string): BranchStory["files"] {
  return out
    .split("\0")
    .filter((r) => r !== "")
    .map((r) => {
      const [added = "", deleted = "", ...path] = r.split("\t");
      return { path: path.join("\t"), added: added === "-" ? null : Number(added), deleted: deleted === "-" ? null : Number(deleted) };
    });
}
