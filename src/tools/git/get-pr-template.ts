// getPRTemplate: the repository's pull request template(s), filled in with what the branch's
// commits and diff say (its commits under the summary heading, the files it changed), ready to be
// the body of githubCreatePR. When the repository has none, it says where it looked and gives the
// branch's summary alone.
import * as v from "valibot";
import { branchStory } from "../../services/review/branch-story.ts";
import { fillTemplate, findPrTemplates, storyText, TEMPLATE_PLACES } from "../../services/review/pr-templates.ts";
import { defineTool } from "../platform/define-tool.ts";

export default defineTool({
  name: "getPRTemplate",
  title: "Pull request template, filled",
  description:
    "Gets the repository's pull request template (.github/, docs/ or root) filled in with the current branch's commits and changed files since its base, for a PR description.",
  searchHint: "pull request template PR description body fill from commits write PR summary checklist",
  input: v.strictObject({
    base: v.optional(v.pipe(v.string(), v.description("The branch the PR goes into (default: origin's main branch, main or master)."))),
  }),
  annotations: { readOnlyHint: true },
  async handler(input, ctx) {
    const [story, templates] = await Promise.all([branchStory(ctx, { base: input.base }), findPrTemplates(ctx)]);
    const head = `Branch ${story.branch}: ${story.commits.length} commit${story.commits.length === 1 ? "" : "s"} and ${story.files.length} changed file${story.files.length === 1 ? "" : "s"} since ${story.base}.`;
    if (templates.length === 0) {
      const places = TEMPLATE_PLACES.map((p) => (p === "." ? "the root" : `${p}/`)).join(", ");
      return `${head}\nNo pull request template in this repository (looked for pull_request_template.md and PULL_REQUEST_TEMPLATE/ in ${places}). The branch's summary:\n\n${storyText(story)}`;
    }
    const out = [head];
    for (const template of templates) {
      const filled = fillTemplate(template.text, story);
      const where =
        filled.filledUnder === undefined ? "the branch's summary put first (no summary heading)" : `filled under "${filled.filledUnder}"`;
      out.push(`\n=== ${template.path} (${where}) ===`, filled.text.trimEnd());
    }
    if (templates.length > 1) out.push(`\n${templates.length} templates: pick the one that fits the change.`);
    return out.join("\n");
  },
});
