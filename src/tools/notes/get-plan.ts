// getPlan: one plan, its steps numbered for updatePlan.
import * as v from "valibot";
import { defineTool } from "../define-tool.ts";
import { PlanSchema } from "./plan-file.ts";
import { readPlan } from "./plan-store.ts";

export const PlanIdField = v.pipe(v.string(), v.minLength(1), v.maxLength(64), v.description("From createPlan or listPlans."));

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
