// createPlan: a new plan with steps, kept in the workspace (.claude-ide-bridge/plans/<id>.md) so
// it outlives the session and a later one can pick it up.
import * as v from "valibot";
import { defineTool } from "../platform/define-tool.ts";
import { PlanSchema, slugOf } from "../../services/notes/plan-file.ts";
import { createPlanFile } from "../../services/notes/plan-store.ts";

export const StepText = v.pipe(v.string(), v.minLength(1), v.maxLength(1000));

export default defineTool({
  name: "createPlan",
  title: "Create a plan",
  description:
    "Creates a plan (title, steps as a checklist, notes) stored in the workspace under .claude-ide-bridge/plans, so this or a later session can follow and update it.",
  searchHint: "create plan todo checklist steps task list roadmap",
  input: v.strictObject({
    title: v.pipe(v.string(), v.minLength(1), v.maxLength(200), v.description("What the plan is for.")),
    steps: v.optional(v.pipe(v.array(StepText), v.maxLength(200), v.description("Steps in order.")), []),
    notes: v.optional(v.pipe(v.string(), v.maxLength(20_000), v.description("Free notes (Markdown).")), ""),
  }),
  output: PlanSchema,
  annotations: { readOnlyHint: false, destructiveHint: false },
  async handler(input, ctx) {
    const updatedAt = new Date().toISOString();
    return createPlanFile(ctx, {
      slug: slugOf(input.title),
      make: (id, file) => ({
        id,
        title: input.title,
        status: "active",
        steps: input.steps.map((text, i) => ({ n: i + 1, text, done: false })),
        notes: input.notes,
        updatedAt,
        file,
      }),
    });
  },
});
