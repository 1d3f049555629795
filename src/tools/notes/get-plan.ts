// getPlan: one plan, its steps numbered for updatePlan.
import * as v from "valibot";
import { defineTool } from "../platform/define-tool.ts";
import { PlanSchema } from "../../services/notes/plan-file.ts";
import { readPlan } from "../../services/notes/plan-store.ts";

export const PlanIdField = v.pipe(v.string(), v.minLength(1), v.maxLength(64), v.description("Plan id."));

export default defineTool({
  name: "getPlan",
  title: "Get a plan",
  description: "Gets a plan: title, status, numbered steps with what is done, and notes.",
  searchHint: "get plan read todo checklist steps progress",
  input: v.strictObject({ planId: PlanIdField }),
  output: PlanSchema,
  annotations: { readOnlyHint: true },
  async handler(input, ctx) {
    return (await readPlan(ctx, input.planId)).plan;
  },
});
