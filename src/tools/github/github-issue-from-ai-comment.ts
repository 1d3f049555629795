// createGithubIssueFromAIComment: an `// AI: ...` (or `# AI: ...`) comment turned into a GitHub
// issue whose body quotes it with the code around it and links its file and line at the commit
// checked out. A dry run by default: it shows the issue that would be filed (for every comment
// found, or the one chosen); `apply: true` files the chosen one. Comments come from VS Code's
// cache of open files when it is connected (unsaved text included), else from a search of the
// workspace (src/services/ai-comments/).
import * as v from "valibot";
import type { ToolContext } from "../../capabilities/context.ts";
import { ToolError } from "../../errors.ts";
import { type AiComment, findAiComments } from "../../services/ai-comments/find-ai-comments.ts";
import { openRepository } from "../../services/git/repository.ts";
import { github } from "../../services/github/gh-api.ts";
import { IssueShape, repoOfUrl } from "../../services/github/rest-shapes.ts";
import { defineTool } from "../platform/define-tool.ts";
import { NameListInput, RepoInput } from "./github-inputs.ts";

const CONTEXT_LINES = 3;
const MAX_SHOWN = 10;
const TITLE_MAX = 120;
const RepoLinks = v.looseObject({ full_name: v.string(), html_url: v.string() });

export default defineTool({
  name: "createGithubIssueFromAIComment",
  title: "GitHub issue from an AI comment",
  description:
    "Files an `AI: ...` code comment as a GitHub issue quoting it with its code and a link to its line. Dry run by default (shows the issues it would file); apply: true with file and line files one.",
  searchHint: "github issue from AI comment todo note in code file ticket link line gh",
  input: v.strictObject({
    file: v.optional(v.pipe(v.string(), v.description("Only the comments of this file."))),
    line: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.description("The comment's 1-based line."))),
    apply: v.optional(v.pipe(v.boolean(), v.description("File the issue (one comment: pass file and line); default: dry run.")), false),
    labels: NameListInput("Label names (they must exist in the repository)."),
    repo: RepoInput,
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
  requires: { probes: ["git"], optionalProbes: ["rg"] },
  async handler(input, ctx) {
    const wanted = input.file === undefined ? undefined : ctx.fs.relative(await ctx.fs.resolve(input.file));
    const chosen = (await commentsOf(ctx, wanted)).filter((c) => input.line === undefined || c.line === input.line);
    if (chosen.length === 0)
      throw new ToolError(
        "match_not_found",
        `No AI: comment ${wanted === undefined ? "in the workspace" : `in ${wanted}${input.line === undefined ? "" : ` at line ${input.line}`}`}`,
        {
          suggestion: "Write one as `// AI: what to do` (or `# AI: ...`), or call getAIComments to see the ones there are.",
        },
      );
    if (input.apply && chosen.length > 1)
      throw new ToolError("invalid_arguments", `${chosen.length} AI: comments match; apply files one issue per call`, {
        suggestion: `Pass file and line of one: ${chosen
          .slice(0, 5)
          .map((c) => `${c.file}:${c.line}`)
          .join(", ")}.`,
      });
    const gh = github(ctx, input.repo);
    const repo = await gh.json(RepoLinks, "GET", gh.repoPath);
    const git = await openRepository(ctx, "read");
    const commit = (await git.output(["rev-parse", "--verify", "HEAD"])).trim();
    const issues = await Promise.all(
      chosen.slice(0, MAX_SHOWN).map((c) => issueFor(ctx, c, { blob: `${repo.html_url}/blob/${commit}/${git.prefix}` })),
    );
    if (!input.apply) {
      const more = chosen.length > MAX_SHOWN ? `\n(${chosen.length - MAX_SHOWN} more comments not shown: pass file to narrow.)` : "";
      return (
        [
          `DRY RUN: ${issues.length} issue${issues.length === 1 ? "" : "s"} would be filed in ${repo.full_name} (nothing sent). The links name commit ${commit.slice(0, 10)}: they resolve once it is pushed. To file one: apply: true with its file and line.`,
          ...issues.map((i, n) => `\n--- ${n + 1}. ${chosen[n]?.file}:${chosen[n]?.line}\nTitle: ${i.title}\n${i.body}`),
        ].join("\n") + more
      );
    }
    const issue = issues[0] as { title: string; body: string };
    const created = await gh.json(IssueShape, "POST", `${gh.repoPath}/issues`, {
      body: { ...issue, ...(input.labels ? { labels: input.labels } : {}) },
    });
    ctx.events.publish("github.issue", {
      action: "created",
      repo: repoOfUrl(created.html_url),
      number: created.number,
      url: created.html_url,
    });
    return `Filed #${created.number} ${created.html_url} from ${chosen[0]?.file}:${chosen[0]?.line}: ${issue.title}`;
  },
});

/** VS Code's cached comments (unsaved text) when it has the file's, else the search's. */
async function commentsOf(ctx: ToolContext, file: string | undefined): Promise<AiComment[]> {
  const inFile = (c: AiComment) => file === undefined || c.file === file;
  if (ctx.extension.connected) {
    const root = `${ctx.fs.root}/`;
    // Files open in VS Code outside the workspace are not the workspace's to file issues about.
    const cached = ctx.extension.state
      .allComments()
      .filter((f) => f.filePath.startsWith(root))
      .flatMap((f) => f.comments.map((c) => ({ file: f.filePath.slice(root.length), line: c.line + 1, text: c.text })))
      .filter(inFile);
    if (cached.length > 0) return cached;
  }
  return (await findAiComments(ctx)).comments.filter(inFile);
}

async function issueFor(ctx: ToolContext, comment: AiComment, opts: { blob: string }): Promise<{ title: string; body: string }> {
  const text = await ctx.fs.readText(comment.file, { maxBytes: 2 * 1024 * 1024 }).catch(() => "");
  const lines = text.split("\n");
  const from = Math.max(1, comment.line - CONTEXT_LINES);
  const to = Math.min(lines.length, comment.line + CONTEXT_LINES);
  const around = lines.slice(from - 1, to).join("\n");
  const fence = "`".repeat(Math.max(3, ...[...around.matchAll(/`+/g)].map((m) => m[0].length + 1)));
  const title = comment.text.length > TITLE_MAX ? `${comment.text.slice(0, TITLE_MAX - 1)}…` : comment.text;
  const link = `${opts.blob}${comment.file.split("/").map(encodeURIComponent).join("/")}#L${comment.line}`;
  return {
    title,
    body: [
      `From an \`AI:\` comment at [${comment.file}:${comment.line}](${link}):`,
      "",
      `> ${comment.text}`,
      ...(around === "" ? [] : ["", `${fence}${languageOf(comment.file)}`, around, fence]),
    ].join("\n"),
  };
}

function languageOf(file: string): string {
  const ext = /\.([A-Za-z0-9]+)$/.exec(file)?.[1] ?? "";
  return /^[a-z0-9]+$/i.test(ext) ? ext : "";
}
