// gitBlame: who last changed each line, and in which commit (git's own compact format).
import * as v from "valibot";
import { ToolError } from "../../errors.ts";
import { pathspec } from "../../services/git/pathspec.ts";
import { revision } from "../../services/git/refs.ts";
import { openRepository } from "../../services/git/repository.ts";
import { textBudget, textResult } from "../../services/git/text-output.ts";
import { defineTool } from "../platform/define-tool.ts";
import { RefInput } from "./git-inputs.ts";

const Line = v.pipe(v.number(), v.integer(), v.minValue(1));

export default defineTool({
  name: "gitBlame",
  title: "Git blame",
  description:
    "Shows who last changed each line of a file, when, and in which commit; optionally for a line range or as of an older commit.",
  searchHint: "git blame who wrote changed this line author annotate commit introduced",
  input: v.strictObject({
    path: v.pipe(v.string(), v.description("Workspace-relative file.")),
    startLine: v.optional(v.pipe(Line, v.description("First line (1-based)."))),
    endLine: v.optional(v.pipe(Line, v.description("Inclusive last line (default: startLine+99)."))),
    ref: v.optional(RefInput("Blame the file as of this commit (default: the working tree).")),
  }),
  annotations: { readOnlyHint: true },
  largeResult: true,
  async handler(input, ctx) {
    const { startLine, endLine } = input;
    if (startLine !== undefined && endLine !== undefined && endLine < startLine) {
      throw new ToolError("invalid_arguments", `endLine ${endLine} is before startLine ${startLine}`, {
        suggestion: "Pass endLine >= startLine.",
      });
    }
    const repo = await openRepository(ctx, "read");
    const file = await pathspec(ctx.fs, input.path);
    const range = startLine === undefined && endLine === undefined ? [] : [`-L${startLine ?? 1},${endLine ?? `+${100}`}`];
    const rev = input.ref === undefined ? [] : [revision(input.ref)];
    // blame parses its arguments itself and takes no --end-of-options; the revision cannot start
    // with "-" (refs.ts) and the file comes after "--".
    const args = ["blame", "--no-textconv", "--date=short", "--abbrev=9", ...range, ...rev, "--", file];
    const result = await repo.run(args, { maxOutputBytes: textBudget(ctx) });
    return textResult(result, { empty: `${input.path} is empty.`, narrower: "pass startLine and endLine" });
  },
});
