// One line per fact `doctor` checked: ✓ fine, · nothing wrong but worth knowing (an optional tool
// missing, no bridge yet: the shim starts one), ! works but will surprise, ✗ broken. Each that is
// not fine says how to fix it. Only ✗ makes the exit status non-zero.
type CheckStatus = "ok" | "info" | "warn" | "fail";

export interface Check {
  /** What was checked: "runtime", "bridge", "lock", "port", "tool", "language server", "claude config". */
  area: string;
  status: CheckStatus;
  summary: string;
  fix?: string;
}

const MARK: Record<CheckStatus, string> = { ok: "✓", info: "·", warn: "!", fail: "✗" };

export function renderChecks(checks: readonly Check[]): string {
  const lines = checks.map((c) => `${MARK[c.status]} ${c.area}: ${c.summary}${c.fix ? `\n    fix: ${c.fix}` : ""}`);
  const failed = checks.filter((c) => c.status === "fail").length;
  const warned = checks.filter((c) => c.status === "warn").length;
  lines.push(
    failed === 0
      ? `All good${warned > 0 ? ` (${warned} warning${warned > 1 ? "s" : ""})` : ""}.`
      : `${failed} problem${failed > 1 ? "s" : ""} found.`,
  );
  return `${lines.join("\n")}\n`;
}

export function hasFailure(checks: readonly Check[]): boolean {
  return checks.some((c) => c.status === "fail");
}

/** A probe's deadline that also ends when the caller's signal aborts (bridgeDoctor's call was cancelled). */
export function probeDeadline(ms: number, caller: AbortSignal | undefined): AbortSignal {
  const timeout = AbortSignal.timeout(ms);
  return caller === undefined ? timeout : AbortSignal.any([caller, timeout]);
}
