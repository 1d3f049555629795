// Reads an automation policy: JSON, each hook validated by its schema, an error naming the field's
// path ("onGitCommit.cooldownMs: cooldownMs must be at least 5000"); the deprecated split names
// folded into the unified hooks with a warning.
import * as v from "valibot";
import { BridgeError } from "../../errors.ts";
import { DEPRECATED_HOOKS, HOOK_SCHEMAS, PolicyHeadSchema, type Hook, type HookName } from "./policy-schema.ts";

export interface AutomationPolicy {
  maxTasksPerHour: number;
  /** The enabled hooks; onTestRun and the others with a discriminator may come more than once (deprecated names). */
  hooks: { name: HookName; hook: Hook }[];
}

export function parsePolicy(text: string, opts: { source: string; warn: (message: string) => void }): AutomationPolicy {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new BridgeError("config_invalid", `${opts.source}: not JSON (${err instanceof Error ? err.message : String(err)})`);
  }
  if (typeof json !== "object" || json === null || Array.isArray(json))
    throw new BridgeError("config_invalid", `${opts.source}: must be a JSON object`);
  const { maxTasksPerHour, ...rest } = json as Record<string, unknown>;
  const head = check(PolicyHeadSchema, { maxTasksPerHour }, { source: opts.source, prefix: "" });
  const hooks: AutomationPolicy["hooks"] = [];
  for (const [key, value] of Object.entries(rest)) {
    const deprecated = DEPRECATED_HOOKS[key];
    const name = deprecated?.hook ?? (key in HOOK_SCHEMAS ? (key as HookName) : undefined);
    if (name === undefined) {
      throw new BridgeError("config_invalid", `${opts.source}: ${key}: unknown hook (known: ${Object.keys(HOOK_SCHEMAS).join(", ")})`);
    }
    if (deprecated !== undefined) opts.warn(`${opts.source}: ${key} is deprecated; use ${name} with ${JSON.stringify(deprecated.fixed)}`);
    const input = deprecated === undefined || typeof value !== "object" || value === null ? value : { ...value, ...deprecated.fixed };
    const hook = check(HOOK_SCHEMAS[name] as v.GenericSchema<unknown, Hook>, input, { source: opts.source, prefix: `${key}.` });
    if (hook.enabled) hooks.push({ name, hook });
  }
  return { maxTasksPerHour: head.maxTasksPerHour, hooks };
}

function check<T>(schema: v.GenericSchema<unknown, T>, value: unknown, opts: { source: string; prefix: string }): T {
  const result = v.safeParse(schema, value);
  if (result.success) return result.output;
  const issue = result.issues[0];
  const path = (issue.path ?? []).map((p) => String(p.key)).join(".");
  const where = `${opts.prefix}${path}`.replace(/\.$/, "");
  throw new BridgeError("config_invalid", `${opts.source}: ${where === "" ? "(top level)" : where}: ${issue.message}`);
}
