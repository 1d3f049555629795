// doctor's word on the running bridge's automation, read from its /health: when commits made
// outside the bridge cannot be seen (no reflog to follow), onGitCommit hooks fire for the bridge's
// own gitCommit only, and the user should know before waiting for a hook that never comes.
import type { Check } from "./doctor-report.ts";

export function automationChecks(health: Record<string, unknown>): Check[] {
  const automation = health.automation;
  const outside =
    typeof automation === "object" && automation !== null && "outsideCommits" in automation
      ? (automation.outsideCommits as { seen?: unknown; reason?: unknown; fix?: unknown })
      : undefined;
  if (outside === undefined || outside.seen !== false) return [];
  return [
    {
      area: "automation",
      status: "warn",
      summary: `commits made outside the bridge are not seen (onGitCommit fires for gitCommit's only): ${String(outside.reason)}`,
      fix: String(outside.fix),
    },
  ];
}
