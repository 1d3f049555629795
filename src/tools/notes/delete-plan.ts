// deletePlan: removes a plan's file for good.
import * as v from "valibot";
import { defineTool } from "../platform/define-tool.ts";
import { PlanIdField } from "./get-plan.ts";
import { planFile, readPlan } from "../../services/notes/plan-store.ts";

export default defineTool({
  name: "deletePlan",
  title: "Delete a plan",
  description: "Deletes a plan from the workspace's plan store (for good: mark it done or abandoned with updatePlan to keep it).",
  searchHint: "delete plan remove todo checklist",
  input: v.strictObject({ planId: PlanIdField }),
  output: v.object({ planId: v.string(), title: v.string() }),
  annotations: { readOnlyHint: false, destructiveHint: true },
  async handler(input, ctx) {
    const { plan } = await readPlan(ctx, input.planId);
    await ctx.fs.remove(planFile(plan.id), { recursive: false });
    return { planId: plan.id, title: plan.title };
  },
});
