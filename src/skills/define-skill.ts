// A skill (MCP Skills extension, SEP-2640) is one of the bridge's workflows written for a model:
// when to use it, the steps, and the tools each step calls, so a model that loads it knows what to
// search for. Served as skill://<name>/SKILL.md to clients with the extension, and as a prompt of
// the same name to those without it.

export interface Skill {
  /** Lowercase letters, digits and single hyphens (Agent Skills' rule); the skill's directory. */
  name: string;
  /** When to use it (1-1024 characters): what a host shows before loading the skill. */
  description: string;
  /** The bridge tools the steps call, in the order they are used. */
  tools: readonly string[];
  /** The markdown body after the frontmatter. */
  body: string;
}

const NAME = /^[\da-z]+(?:-[\da-z]+)*$/;

export function defineSkill(skill: Skill): Skill {
  if (!NAME.test(skill.name) || skill.name.length > 64) throw new Error(`skill name ${skill.name} breaks the Agent Skills name rule`);
  if (skill.description.length === 0 || skill.description.length > 1024)
    throw new Error(`skill ${skill.name}: description must be 1-1024 characters`);
  return skill;
}

/** SKILL.md: YAML frontmatter (name and description, double-quoted: JSON strings are valid YAML ones) and the body. */
export function skillMarkdown(skill: Skill): string {
  const tools = skill.tools.map((t) => `\`${t}\``).join(", ");
  return `---\nname: ${skill.name}\ndescription: ${JSON.stringify(skill.description)}\n---\n\n${skill.body.trim()}\n\nTools this workflow uses (search for them by name): ${tools}.\n`;
}
