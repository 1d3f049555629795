// gitFetch: downloads a remote's new commits and branches (remote-tracking refs only: the working
// tree and local branches stay as they are).
import * as v from "valibot";
import { gitProgress } from "../../services/git/progress.ts";
import { remoteName } from "../../services/git/refs.ts";
import { openRepository } from "../../services/git/repository.ts";
import { defineTool } from "../platform/define-tool.ts";

export const NETWORK_TIMEOUT_MS = 120_000;

/** A first fetch of a big repository updates thousands of refs: the list says how many it left out. */
const MAX_LISTED = 200;

export default defineTool({
  name: "gitFetch",
  title: "Git fetch",
  description:
    "Fetches new commits, branches and tags from a remote (default: the branch's remote, else origin) without touching local branches; prune drops branches deleted there.",
  searchHint: "git fetch remote update download origin refresh remote branches",
  input: v.strictObject({
    remote: v.optional(v.pipe(v.string(), v.description('A configured remote, e.g. "origin".'))),
    all: v.optional(v.pipe(v.boolean(), v.description("Fetch every configured remote.")), false),
    prune: v.optional(v.pipe(v.boolean(), v.description("Remove remote-tracking branches deleted on the remote.")), false),
  }),
  output: v.object({
    remote: v.pipe(v.nullable(v.string()), v.description("null for the default or all remotes.")),
    updated: v.pipe(
      v.array(v.string()),
      v.description(`Refs that changed, as git reports them ("a1b2..c3d4 main -> origin/main"), at most ${MAX_LISTED}.`),
    ),
    omitted: v.optional(v.pipe(v.number(), v.description("Changed refs left out of the list."))),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  timeoutMs: NETWORK_TIMEOUT_MS,
  async handler(input, ctx) {
    const remote = input.remote === undefined ? [] : [remoteName(input.remote)];
    const repo = await openRepository(ctx, "remote");
    const args = ["fetch", "--progress", ...(input.prune ? ["--prune"] : []), ...(input.all ? ["--all"] : ["--end-of-options", ...remote])];
    const result = await repo.run(args, { onOutput: gitProgress(ctx) });
    const updated = result.stderr
      .split(/[\r\n]/)
      .filter((line) => line.includes(" -> ") || line.includes("[deleted]"))
      .map((line) => line.trim().replace(/\s+/g, " "));
    ctx.events.publish("git.fetch", { remote: remote[0] ?? null });
    return {
      remote: remote[0] ?? null,
      updated: updated.slice(0, MAX_LISTED),
      ...(updated.length > MAX_LISTED ? { omitted: updated.length - MAX_LISTED } : {}),
    };
  },
});
