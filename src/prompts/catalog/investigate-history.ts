// investigate-history: why some lines are the way they are: blame, then the commits behind them.
import { Assembly } from "../assembly.ts";
import { definePrompt } from "../define-prompt.ts";

export default definePrompt({
  name: "investigate-history",
  title: "Why is this code like this?",
  description: "Investigates why lines of a file are as they are: who changed them, in which commits, and what those commits said.",
  arguments: [
    { name: "file", description: "The file", required: true, complete: "path" },
    { name: "startLine", description: "First line (1-based)" },
    { name: "endLine", description: "Last line (1-based)" },
  ],
  async build(args, ctx) {
    const file = args.file ?? "";
    const range = lineRange(args.startLine, args.endLine);
    const a = new Assembly(ctx);
    await a.add(`Blame of ${file}${range.startLine ? ` lines ${range.startLine}-${range.endLine ?? range.startLine}` : ""}`, {
      tool: "gitBlame",
      args: { path: file, ...range },
    });
    await a.add(`History of ${file}`, { tool: "getSymbolHistory", args: { path: file, ...range, limit: 10 } });
    return a.render(`Explain how the code in ${file}${range.startLine ? ` (lines ${range.startLine}-${range.endLine ?? range.startLine})` : ""} came to be: the commits that shaped it, what each intended, and whether the reason still holds.
Open a commit with getCommitDetails when its message is not enough. Say when the history does not explain something.`);
  },
});

function lineRange(start: string | undefined, end: string | undefined): { startLine?: number; endLine?: number } {
  const from = Number(start);
  const to = Number(end);
  if (!Number.isInteger(from) || from < 1) return {};
  return Number.isInteger(to) && to >= from ? { startLine: from, endLine: to } : { startLine: from, endLine: from };
}
