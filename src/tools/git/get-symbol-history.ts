// getSymbolHistory: how one function (or a line range) evolved, commit by commit, through
// `git log -L`; when git's function rules find no such function, the commits that added or removed
// the name (`git log -S`) instead. Each commit's diff keeps the changed lines with a little context
// (line-log.ts), is cut to a budget (maxDiffLines), and says how to see the rest.
import * as v from "valibot";
import { ToolError } from "../../errors.ts";
import { NO_DIFF_PROGRAMS } from "../../services/git/git-environment.ts";
import { pathspec } from "../../services/git/pathspec.ts";
import { openRepository, type Repository } from "../../services/git/repository.ts";
import { textBudget, textResult } from "../../services/git/text-output.ts";
import { cutPatches } from "../../lib/text/diff-budget.ts";
import type { ToolContext } from "../../capabilities/context.ts";
import { defineTool } from "../platform/define-tool.ts";
import { LimitInput } from "./git-inputs.ts";
import { changedLinesOnly } from "./line-log.ts";

const HEADER = ["--format=commit %h %ad %an%n%s", "--date=short", "--abbrev=10"];

export default defineTool({
  name: "getSymbolHistory",
  title: "Symbol history",
  description:
    "Shows the commits that changed one function (by name) or a line range of a file, each with its diff of just that code; falls back to commits adding or removing the name.",
  searchHint: "how a function evolved over time: git log -L history of a symbol, who changed this function or method",
  input: v.strictObject({
    path: v.pipe(v.string(), v.description("Workspace-relative file.")),
    symbol: v.optional(
      v.pipe(
        v.string(),
        v.minLength(1),
        v.maxLength(200),
        v.regex(/^[^:\x00-\x1f\x7f]+$/, 'no ":" or control characters (for Foo::bar pass "bar")'),
        v.description("Function or method name as written in its definition."),
      ),
    ),
    startLine: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.description("Instead of symbol: first line of the range."))),
    endLine: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.description("Instead of symbol: last line of the range."))),
    limit: LimitInput("Most commits to show", { fallback: 10, max: 50 }),
    maxDiffLines: LimitInput("Diff lines shown per commit", { fallback: 15, max: 5000 }),
  }),
  annotations: { readOnlyHint: true },
  largeResult: true,
  async handler(input, ctx) {
    const { symbol, startLine, endLine } = input;
    const byRange = startLine !== undefined && endLine !== undefined;
    if (byRange === (symbol !== undefined) || (byRange && endLine < startLine)) {
      throw new ToolError("invalid_arguments", "Pass either symbol, or startLine and endLine (endLine >= startLine)", {
        suggestion: 'E.g. {"path": "src/app.ts", "symbol": "handleRequest"}.',
      });
    }
    const repo = await openRepository(ctx, "read");
    const file = await pathspec(ctx.fs, input.path);
    const range = symbol === undefined ? `${startLine},${endLine}` : `:${literalPattern(symbol)}`;
    const args = ["log", ...NO_DIFF_PROGRAMS, ...HEADER, `--max-count=${input.limit}`, `-L${range}:${file}`];
    const result = await repo.run(args, { maxOutputBytes: textBudget(ctx), okExitCodes: [128] });
    if (result.exitCode === 0) {
      const text = textResult(result, { empty: `No history for ${input.path}.`, narrower: "lower limit" });
      return cutPatches(changedLinesOnly(text, { path: file }), {
        maxLines: input.maxDiffLines,
        sectionStart: /^commit [0-9a-f]+ /,
        more: (header, left) =>
          `[${left} more diff lines; maxDiffLines (now ${input.maxDiffLines}) shows more, getCommitDetails with ref ${header.split(" ")[1]} the whole commit]`,
      }).text;
    }
    if (symbol === undefined || !/no match/.test(result.stderr))
      throw new ToolError("git_failed", `git log -L failed: ${result.stderr.trim()}`, {
        suggestion: "Check the path and the line range (getGitLog lists the file's commits).",
      });
    return pickaxe(repo, symbol, file, input.limit, ctx);
  },
});

async function pickaxe(repo: Repository, symbol: string, file: string, limit: number, ctx: Pick<ToolContext, "settings">): Promise<string> {
  const result = await repo.run(["log", ...HEADER, `--max-count=${limit}`, `-S${symbol}`, "--", file], { maxOutputBytes: textBudget(ctx) });
  const head = `git found no function named "${symbol}" in ${file} (its function rules may not know this language). Commits that added or removed the text "${symbol}":\n\n`;
  return head + textResult(result, { empty: "(none)", narrower: "lower limit" });
}

/** The name as a POSIX basic regular expression matching itself (git compiles -L:<name> as one). */
export function literalPattern(symbol: string): string {
  return symbol.replace(/[.[\]*^$\\]/g, "\\$&");
}
