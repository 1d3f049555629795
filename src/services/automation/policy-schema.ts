// The automation policy file (--automation-policy): which events start a Claude Code task, with what
// prompt and limits. The seed's unified hooks; the older split names are accepted and folded into them
// with a warning. Validated with valibot; an error names the path of the bad field.
import * as v from "valibot";

const effort = v.picklist(["low", "medium", "high", "xhigh", "max"]);

const HookBase = {
  enabled: v.optional(v.boolean(), true),
  /** Placeholders {{name}}; untrusted values are fenced (prompt-template.ts). */
  prompt: v.pipe(v.string(), v.minLength(1), v.maxLength(16_384)),
  cooldownMs: v.optional(
    v.pipe(v.number(), v.integer(), v.minValue(5000, "cooldownMs must be at least 5000"), v.maxValue(86_400_000)),
    30_000,
  ),
  when: v.optional(
    v.strictObject({
      minDiagnosticCount: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
      diagnosticsMinSeverity: v.optional(v.picklist(["error", "warning", "information", "hint"])),
      testRunnerLastStatus: v.optional(v.picklist(["pass", "fail"])),
    }),
  ),
  model: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z0-9._:@/-]{1,100}$/, "a model name"))),
  effort: v.optional(effort),
  systemPrompt: v.optional(v.pipe(v.string(), v.maxLength(8192))),
  timeoutMs: v.optional(v.pipe(v.number(), v.integer(), v.minValue(5000), v.maxValue(600_000)), 300_000),
};

const plain = v.strictObject(HookBase);
const withPatterns = v.strictObject({ ...HookBase, patterns: v.pipe(v.array(v.pipe(v.string(), v.minLength(1))), v.minLength(1)) });

export const HOOK_SCHEMAS = {
  onDiagnosticsStateChange: v.strictObject({ ...HookBase, state: v.optional(v.picklist(["error", "cleared"]), "error") }),
  onFileSave: withPatterns,
  onFileChanged: withPatterns,
  onRecipeSave: plain,
  onCwdChanged: plain,
  onCompaction: v.strictObject({ ...HookBase, phase: v.optional(v.picklist(["pre", "post"]), "post") }),
  onInstructionsLoaded: plain,
  onTestRun: v.strictObject({ ...HookBase, filter: v.optional(v.picklist(["any", "failure", "pass-after-fail"]), "failure") }),
  onGitCommit: plain,
  onGitPush: plain,
  onGitPull: plain,
  onBranchCheckout: plain,
  onPullRequest: plain,
  onTaskCreated: plain,
  onTaskSuccess: plain,
  onPermissionDenied: plain,
  onDebugSession: v.strictObject({ ...HookBase, phase: v.optional(v.picklist(["start", "end"]), "start") }),
} as const;

export type HookName = keyof typeof HOOK_SCHEMAS;
export type Hook = v.InferOutput<typeof plain> & {
  state?: "error" | "cleared";
  phase?: "pre" | "post" | "start" | "end";
  filter?: "any" | "failure" | "pass-after-fail";
  patterns?: string[];
};

/** The pre-unified names: each is its unified hook with the discriminator fixed. */
export const DEPRECATED_HOOKS: Record<string, { hook: HookName; fixed: Record<string, string> }> = {
  onDiagnosticsError: { hook: "onDiagnosticsStateChange", fixed: { state: "error" } },
  onDiagnosticsCleared: { hook: "onDiagnosticsStateChange", fixed: { state: "cleared" } },
  onPreCompact: { hook: "onCompaction", fixed: { phase: "pre" } },
  onPostCompact: { hook: "onCompaction", fixed: { phase: "post" } },
  onTestPassAfterFailure: { hook: "onTestRun", fixed: { filter: "pass-after-fail" } },
  onDebugSessionStart: { hook: "onDebugSession", fixed: { phase: "start" } },
  onDebugSessionEnd: { hook: "onDebugSession", fixed: { phase: "end" } },
};

export const PolicyHeadSchema = v.object({
  maxTasksPerHour: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(1000)), 20),
});
