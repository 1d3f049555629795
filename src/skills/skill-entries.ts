// The wire side of skills: each skill's entry (skill://<name>/SKILL.md, its frontmatter, and the
// one file it has with its size and SHA-256, which hosts verify before loading it) and the file's
// contents for resources/read.
import { type Skill, skillMarkdown } from "./define-skill.ts";

export const SKILL_SCHEME = "skill://";

export interface SkillEntry {
  uri: string;
  frontmatter: { name: string; description: string };
  resources: { uri: string; digest: string; size: number }[];
}

export function skillUri(skill: Skill): string {
  return `${SKILL_SCHEME}${skill.name}/SKILL.md`;
}

export async function skillEntry(skill: Skill): Promise<SkillEntry> {
  const bytes = new TextEncoder().encode(skillMarkdown(skill));
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  const digest = `sha256:${[...hash].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
  const uri = skillUri(skill);
  return { uri, frontmatter: { name: skill.name, description: skill.description }, resources: [{ uri, digest, size: bytes.byteLength }] };
}

/** The skill a skill:// URI names (its SKILL.md), or undefined. */
export function skillAt(skills: readonly Skill[], uri: string): Skill | undefined {
  return skills.find((s) => skillUri(s) === uri);
}
