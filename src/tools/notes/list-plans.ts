// listPlans: the plans in the workspace, newest change first, with how far along each is.
import * as v from "valibot";
import { defineTool } from "../platform/define-tool.ts";
import { PLAN_STATUSES } from "../../services/notes/plan-file.ts";
import { listPlanFiles, PLANS_DIR } from "../../services/notes/plan-store.ts";

export default defineTool({
  name: "listPlans",
  title: "List plans",
  description:
    "Lists the plans kept in the workspace (id, title, status, steps done of total, last change), newest first; optionally only one status.",
  searchHint: "list plans todo checklists tasks progress",
  input: v.strictObject({ status: v.optional(v.pipe(v.picklist(PLAN_STATUSES), v.description("Only plans with this status."))) }),
  output: v.object({
    directory: v.string(),
    plans: v.array(
      v.object({
        id: v.string(),
        title: v.string(),
        status: v.picklist(PLAN_STATUSES),
        done: v.number(),
        total: v.number(),
        updatedAt: v.string(),
      }),
    ),
  }),
  annotations: { readOnlyHint: true },
  async handler(input, ctx) {
    const plans = (await listPlanFiles(ctx)).filter((p) => input.status === undefined || p.status === input.status);
    return {
      directory: PLANS_DIR,
      plans: plans.map((p) => ({
        id: p.id,
        title: p.title,
        status: p.status,
        done: p.steps.filter((s) => s.done).length,
        total: p.steps.length,
        updatedAt: p.updatedAt,
      })),
    };
  },
});
