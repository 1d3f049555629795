// Reading and writing plans through ctx.fs (src/services/notes/plan-file.ts for the format). A plan is
// read as a document and written back only if it is still the version read, so two sessions
// updating one plan at once cannot silently lose an update: the second is told to read it again.
import { ToolError } from "../../errors.ts";
import type { ToolContext } from "../../capabilities/context.ts";
import { documentWrite, readDocument } from "../documents/text-document.ts";
import { DATA_DIR, ensureDataDir } from "./bridge-data-dir.ts";
import { parsePlan, PLAN_ID, renderPlan, type Plan } from "./plan-file.ts";

export const PLANS_DIR = `${DATA_DIR}/plans`;

export function planFile(id: string): string {
  if (!PLAN_ID.test(id))
    throw new ToolError("invalid_arguments", `"${id}" is not a plan id (lowercase letters, digits and "-")`, {
      suggestion: "Use an id listPlans or createPlan returned.",
    });
  return `${PLANS_DIR}/${id}.md`;
}

export async function readPlan(ctx: ToolContext, id: string): Promise<{ plan: Plan; save(next: Plan): Promise<void> }> {
  const file = planFile(id);
  const doc = await readDocument(ctx, file).catch((err: unknown) => {
    if (err instanceof ToolError && err.code === "file_not_found")
      throw new ToolError("plan_not_found", `No plan ${id}`, { suggestion: "listPlans shows the plans there are." });
    throw err;
  });
  return {
    plan: parsePlan(doc.text, { id, file }),
    save: (next) => ctx.fs.commit([documentWrite(doc, renderPlan(next))]),
  };
}

/** Writes a new plan under a free id derived from `slug`; returns the id. */
export async function createPlanFile(ctx: ToolContext, opts: { slug: string; make: (id: string, file: string) => Plan }): Promise<Plan> {
  const { slug, make } = opts;
  await ensureDataDir(ctx, "plans");
  for (let n = 1; n <= 100; n++) {
    const id = n === 1 ? slug : `${slug}-${n}`;
    const plan = make(id, planFile(id));
    try {
      await ctx.fs.writeFile(plan.file, renderPlan(plan), { createOnly: true });
      return plan;
    } catch (err) {
      if (!(err instanceof ToolError && err.code === "file_exists")) throw err;
    }
  }
  throw new ToolError("limit_reached", `100 plans are already named like "${slug}"`, {
    suggestion: "Give the plan a more specific title, or delete old ones.",
  });
}

export async function listPlanFiles(ctx: ToolContext): Promise<Plan[]> {
  const entries = await ctx.fs.list(PLANS_DIR).catch((err: unknown) => {
    if (err instanceof ToolError && err.code === "file_not_found") return [];
    throw err;
  });
  const plans: Plan[] = [];
  for (const entry of entries) {
    const id = entry.name.endsWith(".md") ? entry.name.slice(0, -3) : "";
    if (entry.kind !== "file" || !PLAN_ID.test(id)) continue;
    const text = await ctx.fs.readText(planFile(id), { maxBytes: 1024 * 1024 }).catch(() => undefined);
    if (text !== undefined) plans.push(parsePlan(text, { id, file: planFile(id) }));
  }
  return plans.sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : a.id < b.id ? -1 : 1));
}
