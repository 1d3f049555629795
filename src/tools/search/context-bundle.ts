// contextBundle: everything a session starts from, as one text: the project's context
// (src/services/project/project-context.ts), the working tree's git status, the handoff note the last
// session left, the open plans, and the head of the README or CLAUDE.md. Plain text: it is read,
// not processed.
import * as v from "valibot";
import type { ToolContext } from "../../capabilities/context.ts";
import { defineTool } from "../platform/define-tool.ts";
import { readHandoff } from "../../services/notes/handoff-note.ts";
import { listPlanFiles } from "../../services/notes/plan-store.ts";
import { collectProjectContext } from "../../services/project/project-context.ts";
import { openRepository } from "../../services/git/repository.ts";
import { ToolError } from "../../errors.ts";

const GUIDE_LINES = 40;
const STATUS_LINES = 30;

export default defineTool({
  name: "contextBundle",
  title: "Context bundle",
  description:
    "Bundles a session's starting context in one call: project kind, key files, layout, recent changes, git status, the handoff note, open plans and the head of CLAUDE.md or README.",
  searchHint:
    "gather what I need to start or understand the work: context bundle, session overview, handoff note, plans, git status, readme",
  input: v.strictObject({}),
  annotations: { readOnlyHint: true },
  requires: { optionalProbes: ["git"] },
  slim: true,
  largeResult: true,
  async handler(_input, ctx) {
    const c = await collectProjectContext(ctx);
    const sections: string[] = [`# ${c.project.name} (${c.project.kinds.join(", ") || "kind not detected"}), ${c.fileCount} files`];
    sections.push(`## Key files\n${c.keyFiles.join(", ") || "(none at the root)"}`);
    sections.push(
      `## Layout\n${c.layout
        .slice(0, 20)
        .map((d) => `${d.path} ${d.files}`)
        .join("\n")}`,
    );
    const branch = c.recent.branch === undefined ? "" : ` on ${c.recent.branch}`;
    sections.push(
      `## Recent changes (${c.recent.source === "git" ? `git${branch}` : "by modification time"})\n${c.recent.changes.map((r) => `${r.when} ${r.path}`).join("\n") || "(none)"}${c.recent.scope === undefined ? "" : `\n(${c.recent.scope})`}`,
    );
    const status = await gitStatus(ctx);
    if (status !== undefined) sections.push(`## Git status\n${status || "(clean)"}`);
    const handoff = await readHandoff(ctx);
    sections.push(`## Handoff note${handoff?.updatedAt ? ` (${handoff.updatedAt})` : ""}\n${handoff?.note.trim() || "(none)"}`);
    const plans = (await listPlanFiles(ctx)).filter((p) => p.status === "active");
    sections.push(
      `## Active plans\n${plans.map((p) => `${p.id}: ${p.title} (${p.steps.filter((s) => s.done).length}/${p.steps.length} done)`).join("\n") || "(none)"}`,
    );
    const guide = await firstGuide(ctx, c.keyFiles);
    if (guide !== undefined) sections.push(guide);
    return sections.join("\n\n");
  },
});

async function gitStatus(ctx: ToolContext): Promise<string | undefined> {
  if (!(await ctx.probes.get("git")).available) return undefined;
  let status: string;
  let prefix: string;
  try {
    // The git tools' repository (the one runner): a hostile .git/config runs nothing here either.
    const repo = await openRepository(ctx, "read");
    prefix = repo.prefix;
    status = await repo.output(["status", "--short", "--branch", "--no-renames", "--", "."], { timeoutMs: 10_000 });
  } catch (err) {
    if (err instanceof ToolError) return undefined;
    throw err;
  }
  const lines = status.split("\n").filter((l) => l !== "");
  const more = lines.length > STATUS_LINES ? `\n… ${lines.length - STATUS_LINES} more` : "";
  const scope = prefix === "" ? "" : `\n(only the workspace folder ${prefix} of the repository; changes elsewhere in it are not shown)`;
  return lines.slice(0, STATUS_LINES).join("\n") + more + scope;
}

async function firstGuide(ctx: ToolContext, keyFiles: readonly string[]): Promise<string | undefined> {
  const file = ["CLAUDE.md", "AGENTS.md", "README.md", "README", "README.rst"].find((f) => keyFiles.includes(f));
  if (file === undefined) return undefined;
  const text = await ctx.fs.readText(file, { maxBytes: 1024 * 1024 }).catch(() => undefined);
  if (text === undefined) return undefined;
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === "") lines.pop();
  const more = lines.length > GUIDE_LINES ? `\n[… ${lines.length - GUIDE_LINES} more lines: getBufferContent ${file}]` : "";
  return `## ${file} (first ${Math.min(GUIDE_LINES, lines.length)} lines)\n${lines.slice(0, GUIDE_LINES).join("\n")}${more}`;
}
