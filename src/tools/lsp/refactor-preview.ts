// refactorPreview: the diff a refactoring would make and the errors it would introduce or fix,
// nothing written; its digest lets refactorExtractFunction (or the same call) write exactly it.
import * as v from "valibot";
import { ToolError } from "../../errors.ts";
import { defineTool } from "../platform/define-tool.ts";
import { refactorsAt, selectionFields } from "./refactor-actions.ts";
import { runRefactor } from "./refactor-edit.ts";

export default defineTool({
  name: "refactorPreview",
  title: "Preview a refactoring",
  description:
    "Shows the diff a refactoring (by its title from refactorAnalyze) would make to a selection and the errors it would introduce or fix, without writing anything.",
  searchHint: "refactor preview diff of extract function inline move to file before applying dry run refactoring",
  input: v.strictObject({
    ...selectionFields,
    title: v.pipe(v.string(), v.minLength(1), v.description("Title (or part) from refactorAnalyze.")),
    name: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z_$][\w$]*$/), v.description("Name for what an extract creates."))),
  }),
  annotations: { readOnlyHint: true },
  slim: true,
  timeoutMs: 120_000,
  async handler(input, ctx) {
    const at = await refactorsAt(input, ctx);
    const wanted = input.title.toLowerCase();
    const exact = at.actions.filter((a) => a.title.toLowerCase() === wanted);
    const found = exact.length > 0 ? exact : at.actions.filter((a) => a.title.toLowerCase().includes(wanted));
    const action = found[0];
    if (action === undefined || found.length > 1)
      throw new ToolError(
        "code_action_not_found",
        `${found.length === 0 ? "No" : `${found.length}`} refactorings titled "${input.title}" for ${at.doc.relative} ${at.where}; offered: ${at.actions.map((a) => `"${a.title}"`).join(", ") || "none"}`,
        { suggestion: "Pass the whole title of one offered (refactorAnalyze lists them)." },
      );
    return runRefactor(at, ctx, { action, dryRun: true, onlyIfNoNewErrors: false, name: input.name });
  },
});
