// A repository's pull request templates, where GitHub looks for them: .github/, docs/ and the root,
// as pull_request_template.md (any case) or a PULL_REQUEST_TEMPLATE/ folder of several. Found by
// listing those three folders (no walk), read through the jail.
import type { ToolContext } from "../../capabilities/context.ts";

export const TEMPLATE_PLACES = [".github", "docs", "."] as const;
const MAX_TEMPLATE_BYTES = 64 * 1024;
const SINGLE = /^pull_request_template(\.md|\.txt)?$/i;
const FOLDER = /^pull_request_template$/i;

export interface PrTemplate {
  /** Root-relative path. */
  path: string;
  text: string;
}

export async function findPrTemplates(ctx: ToolContext): Promise<PrTemplate[]> {
  const found: PrTemplate[] = [];
  for (const place of TEMPLATE_PLACES) {
    const entries = await ctx.fs.list(place).catch(() => []);
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.kind === "file" && SINGLE.test(entry.name)) found.push(await read(ctx, entry.path));
      if (entry.kind === "directory" && FOLDER.test(entry.name)) {
        const inner = await ctx.fs.list(ctx.fs.relative(entry.path)).catch(() => []);
        for (const file of inner.sort((a, b) => a.name.localeCompare(b.name)))
          if (file.kind === "file" && /\.(md|txt)$/i.test(file.name)) found.push(await read(ctx, file.path));
      }
    }
  }
  return found;
}

async function read(ctx: ToolContext, path: Parameters<ToolContext["fs"]["relative"]>[0]): Promise<PrTemplate> {
  return { path: ctx.fs.relative(path), text: await ctx.fs.readResolvedText(path, { maxBytes: MAX_TEMPLATE_BYTES }) };
}

/** What the branch says about itself, to fill a template with. */
export interface BranchStory {
  branch: string;
  base: string;
  commits: { hash: string; subject: string; body: string }[];
  files: { path: string; added: number | null; deleted: number | null }[];
}

/**
 * The template with the branch's story put where it belongs: the commits under the first heading
 * about a summary, description or changes (after its comment), the changed files under one about
 * files or testing is left to the author. Without such a heading, the story is put first.
 */
export function fillTemplate(template: string, story: BranchStory): { text: string; filledUnder: string | undefined } {
  const summary = storyText(story);
  const lines = template.split("\n");
  const at = lines.findIndex((l) => /^#{1,6}\s.*\b(summary|description|changes|what|overview|motivation)\b/i.test(l));
  if (at < 0) return { text: `${summary}\n\n${template}`, filledUnder: undefined };
  let insert = at + 1;
  // A template's guidance comment right under the heading stays above what is filled in.
  if (/^\s*<!--/.test(lines[insert] ?? "")) {
    while (insert < lines.length && !(lines[insert] ?? "").includes("-->")) insert++;
    insert++;
  }
  lines.splice(insert, 0, summary);
  return { text: lines.join("\n"), filledUnder: (lines[at] ?? "").trim() };
}

export function storyText(story: BranchStory): string {
  const commits = story.commits.map((c) => `- ${c.subject} (${c.hash})`);
  const files = story.files.map((f) => `- ${f.path}${f.added === null ? " (binary)" : ` (+${f.added} -${f.deleted ?? 0})`}`);
  return [
    ...commits,
    "",
    `Files changed (${story.files.length}):`,
    ...files.slice(0, 50),
    ...(files.length > 50 ? [`- … ${files.length - 50} more`] : []),
  ].join("\n");
}
