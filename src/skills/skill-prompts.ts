// The same workflows for clients without the Skills extension: each skill is also a prompt named
// after it, whose text is the skill's SKILL.md body. It quotes nothing from the workspace, so it
// needs no fence; a client that wants context picks one of the context prompts as well.
import { definePrompt, type Prompt } from "../prompts/define-prompt.ts";
import type { Skill } from "./define-skill.ts";
import { skillMarkdown } from "./define-skill.ts";

export function skillPrompts(skills: readonly Skill[]): Prompt[] {
  return skills.map((skill) =>
    definePrompt({
      name: `workflow-${skill.name}`,
      title: `Workflow: ${skill.name.replace(/-/g, " ")}`,
      description: `${skill.description} (also served as the skill ${skill.name})`,
      arguments: [],
      build: async () => skillMarkdown(skill).replace(/^---\n[\s\S]*?\n---\n\n/, ""),
    }),
  );
}
