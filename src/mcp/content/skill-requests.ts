// skills/list, skills/get and the resources/read of skill:// files (MCP Skills extension,
// SEP-2640, as @modelcontextprotocol/server 2.4.0 serves it): entries with each file's size and
// digest, so a host can verify what it loads.
import * as v from "valibot";
import { ProtocolError, RpcCode } from "../../errors.ts";
import type { Skill } from "../../skills/define-skill.ts";
import { skillMarkdown } from "../../skills/define-skill.ts";
import { SKILL_SCHEME, skillAt, skillEntry } from "../../skills/skill-entries.ts";
import type { Params } from "../protocol/jsonrpc.ts";

export const SKILLS_EXTENSION = "io.modelcontextprotocol/skills";

const GetParams = v.object({ uri: v.string() });

export async function listSkills(skills: readonly Skill[]): Promise<Params> {
  return { skills: await Promise.all(skills.map((s) => skillEntry(s))) };
}

export async function getSkill(skills: readonly Skill[], params: Params | undefined): Promise<Params> {
  const parsed = v.safeParse(GetParams, params ?? {});
  if (!parsed.success) throw new ProtocolError(RpcCode.invalidParams, "Invalid params: skills/get needs uri (the skill's SKILL.md URI)");
  const skill = skillAt(skills, parsed.output.uri);
  if (skill === undefined) {
    throw new ProtocolError(
      RpcCode.resourceNotFound,
      `Skill not found: ${parsed.output.uri}; skills/list names the ${skills.length} skills`,
      {
        data: { uri: parsed.output.uri },
      },
    );
  }
  return { skill: await skillEntry(skill) };
}

export function isSkillUri(uri: unknown): uri is string {
  return typeof uri === "string" && uri.startsWith(SKILL_SCHEME);
}

export function readSkillFile(skills: readonly Skill[], uri: string): Params {
  const skill = skillAt(skills, uri);
  if (skill === undefined) throw new ProtocolError(RpcCode.resourceNotFound, `Resource not found: ${uri}`, { data: { uri } });
  return { contents: [{ uri, mimeType: "text/markdown", text: skillMarkdown(skill) }] };
}
