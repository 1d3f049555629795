// A plan as a Markdown file, `.claude-ide-bridge/plans/<id>.md`, that a person can read and edit
// too: a title, a status line, steps as task-list items, free notes. Parsing is forgiving (a
// hand-edited file still reads), and writing gives back the same layout.
import * as v from "valibot";

export const PLAN_STATUSES = ["active", "done", "abandoned"] as const;

export const PlanSchema = v.object({
  id: v.string(),
  title: v.string(),
  status: v.picklist(PLAN_STATUSES),
  steps: v.array(v.object({ n: v.number(), text: v.string(), done: v.boolean() })),
  notes: v.string(),
  updatedAt: v.pipe(v.string(), v.description("ISO time of the last change.")),
  file: v.pipe(v.string(), v.description("Where the plan is kept, relative to the workspace root.")),
});
export type Plan = v.InferOutput<typeof PlanSchema>;

/** Plan ids are file names: lowercase words joined by "-", nothing a path could be built from. */
export const PLAN_ID = /^[a-z0-9][a-z0-9-]{0,63}$/;

export function slugOf(title: string): string {
  const slug = title
    .normalize("NFKD")
    // "é" is "e" and a combining accent once decomposed: the accent goes, the letter stays.
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 48)
    .replace(/-+$/, "");
  return slug === "" ? "plan" : slug;
}

export function renderPlan(plan: Plan): string {
  const steps = plan.steps.map((s) => `- [${s.done ? "x" : " "}] ${oneLine(s.text)}`);
  const notes = plan.notes.trim() === "" ? [] : ["", "## Notes", "", plan.notes.trim()];
  return [`# ${oneLine(plan.title)}`, "", `Status: ${plan.status}`, `Updated: ${plan.updatedAt}`, "", ...steps, ...notes, ""].join("\n");
}

export function parsePlan(text: string, where: { id: string; file: string }): Plan {
  const { id, file } = where;
  const lines = text.split(/\r?\n/);
  const notesAt = lines.findIndex((l) => /^##\s+Notes\s*$/i.test(l));
  const head = notesAt < 0 ? lines : lines.slice(0, notesAt);
  const title =
    head
      .find((l) => l.startsWith("# "))
      ?.slice(2)
      .trim() ?? id;
  const status = /^Status:\s*(\w+)/im.exec(head.join("\n"))?.[1]?.toLowerCase();
  const updatedAt = /^Updated:\s*(\S+)/im.exec(head.join("\n"))?.[1] ?? "";
  const steps = head.flatMap((l) => {
    const m = /^\s*[-*]\s+\[([ xX])\]\s+(.*)$/.exec(l);
    return m === null ? [] : [{ text: (m[2] as string).trim(), done: m[1] !== " " }];
  });
  return {
    id,
    title,
    status: PLAN_STATUSES.find((s) => s === status) ?? "active",
    steps: steps.map((s, i) => ({ n: i + 1, ...s })),
    notes:
      notesAt < 0
        ? ""
        : lines
            .slice(notesAt + 1)
            .join("\n")
            .trim(),
    updatedAt,
    file,
  };
}

/** Steps and titles are one line each in the file; a newline would start a line of its own. */
function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, " ").trim();
}
