// getGitLog: commits as a compact list (hash, date, author, subject), filtered by range, paths,
// author, date and message.
import * as v from "valibot";
import { LOG_OPTIONS, parseLog } from "../../services/git/log-format.ts";
import { wholeRepositoryNote } from "../../services/git/partial-view.ts";
import { pathspecs } from "../../services/git/pathspec.ts";
import { revisionRange } from "../../services/git/refs.ts";
import { openRepository } from "../../services/git/repository.ts";
import { defineTool } from "../platform/define-tool.ts";
import { LimitInput, LineInput, PathsInput, RefInput } from "./git-inputs.ts";

const LogEntry = v.object({ hash: v.string(), date: v.string(), author: v.string(), subject: v.string() });

export default defineTool({
  name: "getGitLog",
  title: "Git log",
  description:
    "Lists commits (hash, date, author, subject), newest first: of HEAD or a range such as main..HEAD, optionally only those touching paths, by an author, since a date or matching a message.",
  searchHint: "git log commit history of a file recent commits author range since who changed",
  input: v.strictObject({
    range: v.optional(RefInput('Branch, commit or range, e.g. "v1.0..HEAD".')),
    paths: PathsInput,
    author: v.optional(LineInput("Commits whose author name or email contains this text.")),
    since: v.optional(LineInput('Commits after this date: "2024-05-01", "2 weeks ago".')),
    grep: v.optional(LineInput("Commits whose message contains this text (case-insensitive).")),
    limit: LimitInput("Most commits to list", { fallback: 30, max: 500 }),
  }),
  output: v.object({
    commits: v.array(LogEntry),
    more: v.pipe(v.boolean(), v.description("More commits match than `limit`.")),
    scope: v.optional(v.pipe(v.string(), v.description("With the workspace a subfolder of its repository: what the list covers."))),
  }),
  annotations: { readOnlyHint: true },
  async handler(input, ctx) {
    const repo = await openRepository(ctx, "read");
    const paths = input.paths === undefined ? [] : await pathspecs(ctx.fs, input.paths);
    const args = [
      "log",
      ...LOG_OPTIONS,
      `--max-count=${input.limit + 1}`,
      // Filters are text, not regular expressions: a name with "." or "(" means itself.
      "--fixed-strings",
      ...(input.author === undefined ? [] : [`--author=${input.author}`]),
      ...(input.since === undefined ? [] : [`--since=${input.since}`]),
      ...(input.grep === undefined ? [] : [`--grep=${input.grep}`, "--regexp-ignore-case"]),
      "--end-of-options",
      revisionRange(input.range ?? "HEAD"),
      "--",
      ...paths,
    ];
    const commits = parseLog(await repo.output(args));
    // Without paths, git lists the repository's commits, not only those touching the workspace's folder.
    const scope =
      input.paths === undefined
        ? wholeRepositoryNote(repo, { narrower: 'pass paths: ["."] for the commits that touch the workspace' })
        : undefined;
    return { commits: commits.slice(0, input.limit), more: commits.length > input.limit, ...(scope === undefined ? {} : { scope }) };
  },
});
