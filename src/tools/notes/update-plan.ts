// updatePlan: ticks steps off, adds or removes steps, changes the title, status or notes; refuses
// when the plan changed since it was read (another session), rather than losing that change.
import * as v from "valibot";
import { ToolError } from "../../errors.ts";
import { defineTool } from "../platform/define-tool.ts";
import { StepText } from "./create-plan.ts";
import { PlanIdField } from "./get-plan.ts";
import { PLAN_STATUSES, PlanSchema, type Plan } from "../../services/notes/plan-file.ts";
import { readPlan } from "../../services/notes/plan-store.ts";

const StepNumbers = v.pipe(v.array(v.pipe(v.number(), v.integer(), v.minValue(1))), v.maxLength(200));

export default defineTool({
  name: "updatePlan",
  title: "Update a plan",
  description:
    "Updates a plan: completes, reopens, adds or removes steps (by 1-based number), and changes its title, status (active, done, abandoned) or notes.",
  searchHint: "update plan complete step check off todo progress status",
  input: v.strictObject({
    planId: PlanIdField,
    completeSteps: v.optional(v.pipe(StepNumbers, v.description("Steps to mark done."))),
    reopenSteps: v.optional(v.pipe(StepNumbers, v.description("Steps to mark not done."))),
    removeSteps: v.optional(v.pipe(StepNumbers, v.description("Steps to remove (numbers as before this call)."))),
    addSteps: v.optional(v.pipe(v.array(StepText), v.maxLength(200), v.description("Steps to append."))),
    title: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(200), v.description("A new title."))),
    status: v.optional(v.pipe(v.picklist(PLAN_STATUSES), v.description("A new status."))),
    notes: v.optional(v.pipe(v.string(), v.maxLength(20_000), v.description("Replaces the notes."))),
  }),
  output: PlanSchema,
  annotations: { readOnlyHint: false, destructiveHint: false },
  async handler(input, ctx) {
    const { plan, save } = await readPlan(ctx, input.planId);
    const count = plan.steps.length;
    for (const n of [...(input.completeSteps ?? []), ...(input.reopenSteps ?? []), ...(input.removeSteps ?? [])]) {
      if (n > count)
        throw new ToolError("invalid_arguments", `Step ${n} does not exist; ${plan.id} has ${count} steps`, {
          suggestion: "getPlan shows the step numbers.",
        });
    }
    const remove = new Set(input.removeSteps ?? []);
    const steps = plan.steps
      .map((s) => ({ ...s, done: input.completeSteps?.includes(s.n) ? true : input.reopenSteps?.includes(s.n) ? false : s.done }))
      .filter((s) => !remove.has(s.n))
      .concat((input.addSteps ?? []).map((text) => ({ n: 0, text, done: false })))
      .map((s, i) => ({ ...s, n: i + 1 }));
    const next: Plan = {
      ...plan,
      title: input.title ?? plan.title,
      status: input.status ?? plan.status,
      notes: input.notes ?? plan.notes,
      steps,
      updatedAt: new Date().toISOString(),
    };
    await save(next);
    return next;
  },
});
