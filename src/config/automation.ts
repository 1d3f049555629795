// The automation settings: whether the bridge runs Claude Code tasks (--claude-driver), which
// `claude` (--claude-binary) and the hooks policy file (--automation-policy). Off by default: a task
// spends the user's Claude usage, so nothing runs one until the user says so.
import * as v from "valibot";
import { isAbsolute, join, normalize } from "../lib/paths/posix-path.ts";

const path = v.pipe(v.string(), v.minLength(1), v.maxLength(4096));

/** The config-file keys (camelCase flags), merged into ConfigFileSchema. */
export const AUTOMATION_FILE_KEYS = {
  claudeDriver: v.optional(v.picklist(["subprocess", "none"])),
  claudeBinary: v.optional(path),
  automationPolicy: v.optional(path),
  /** Claude Code tasks running at once (each is a process of a few hundred MB); the others wait. */
  automationConcurrency: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(8))),
};

export interface AutomationConfig {
  /** "subprocess": tasks run `claude -p` as a child process; "none": the task tools say they cannot run. */
  claudeDriver: "subprocess" | "none";
  /** Absolute path of the `claude` to run; undefined: found on PATH, else the workspace's node_modules/.bin. */
  claudeBinary: string | undefined;
  /** Absolute path of the hooks policy (src/services/automation/policy-schema.ts). */
  policyPath: string | undefined;
  /** Tasks running at once (--automation-concurrency, 1-8). */
  concurrency: number;
}

export const DEFAULT_AUTOMATION: AutomationConfig = {
  claudeDriver: "none",
  claudeBinary: undefined,
  policyPath: undefined,
  concurrency: 2,
};

type FileKeys = { [K in keyof typeof AUTOMATION_FILE_KEYS]?: v.InferOutput<(typeof AUTOMATION_FILE_KEYS)[K]> };

export function resolveAutomation(merged: FileKeys, opts: { cwd: string }): AutomationConfig {
  const absolute = (p: string | undefined) => (p === undefined ? undefined : isAbsolute(p) ? normalize(p) : join(opts.cwd, p));
  return {
    claudeDriver: merged.claudeDriver ?? DEFAULT_AUTOMATION.claudeDriver,
    claudeBinary: absolute(merged.claudeBinary),
    policyPath: absolute(merged.automationPolicy),
    concurrency: merged.automationConcurrency ?? DEFAULT_AUTOMATION.concurrency,
  };
}
