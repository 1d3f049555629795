// auditDependencies: the project's auditor (npm audit, pip-audit, cargo audit) run for JSON and
// summarized per vulnerable package: counts by severity and the packages, worst first, with their
// fixes. getSecurityAdvisories reads the same reports advisory by advisory, every ecosystem at once.
import * as v from "valibot";
import { ToolError } from "../../errors.ts";
import { isRecord, readProjectFacts } from "../../services/diagnostics/project-facts.ts";
import type { ToolContext } from "../../capabilities/context.ts";
import { defineTool } from "../platform/define-tool.ts";
import { AUDIT_SEVERITIES } from "../../services/audit/advisory-findings.ts";
import { parseCargoAudit, parseNpmAudit, parsePipAudit, type Advisory } from "../../services/audit/audit-reports.ts";
import { runAudit } from "../../services/audit/audit-runs.ts";

const AUDITORS = ["npm", "pip-audit", "cargo-audit"] as const;
type Auditor = (typeof AUDITORS)[number];
const MAX_ADVISORIES = 100;

export default defineTool({
  name: "auditDependencies",
  title: "Audit dependencies",
  description:
    "Audits dependencies (npm audit, pip-audit or cargo audit): counts by severity, each vulnerable package and its fix. Per advisory, with fixed-in versions and dependency paths: getSecurityAdvisories.",
  searchHint: "audit dependencies vulnerabilities security npm audit pip-audit cargo audit cve advisories",
  input: v.strictObject({
    auditor: v.optional(v.pipe(v.picklist(AUDITORS), v.description("Default: the one matching the project's lock or manifest file."))),
  }),
  output: v.object({
    auditor: v.picklist(AUDITORS),
    counts: v.object({
      critical: v.number(),
      high: v.number(),
      moderate: v.number(),
      low: v.number(),
      info: v.number(),
      unknown: v.number(),
    }),
    advisories: v.array(
      v.object({
        package: v.string(),
        severity: v.picklist(AUDIT_SEVERITIES),
        title: v.string(),
        url: v.optional(v.string()),
        fix: v.optional(v.string()),
      }),
    ),
    omitted: v.optional(v.number()),
  }),
  annotations: { readOnlyHint: true, openWorldHint: true },
  timeoutMs: 300_000,
  async handler(input, ctx) {
    const auditor = input.auditor ?? (await detectAuditor(ctx));
    const advisories = (await runAuditor(ctx, auditor)).sort(
      (a, b) => AUDIT_SEVERITIES.indexOf(a.severity) - AUDIT_SEVERITIES.indexOf(b.severity),
    );
    const count = (severity: Advisory["severity"]) => advisories.filter((a) => a.severity === severity).length;
    const counts = {
      critical: count("critical"),
      high: count("high"),
      moderate: count("moderate"),
      low: count("low"),
      info: count("info"),
      unknown: count("unknown"),
    };
    const result: { auditor: Auditor; counts: typeof counts; advisories: Advisory[]; omitted?: number } = {
      auditor,
      counts,
      advisories: advisories.slice(0, MAX_ADVISORIES),
    };
    if (advisories.length > MAX_ADVISORIES) result.omitted = advisories.length - MAX_ADVISORIES;
    return result;
  },
});

async function detectAuditor(ctx: ToolContext): Promise<Auditor> {
  const { names } = await readProjectFacts(ctx);
  if (names.has("package-lock.json") || names.has("package.json")) return "npm";
  if (names.has("Cargo.lock") || names.has("Cargo.toml")) return "cargo-audit";
  if ([...names].some((n) => /^requirements.*\.txt$/.test(n)) || names.has("pyproject.toml")) return "pip-audit";
  throw new ToolError("not_detected", "No package.json, Cargo.toml, requirements.txt or pyproject.toml at the workspace root", {
    suggestion: "Pass auditor, or audit from the package's own directory.",
  });
}

async function runAuditor(ctx: ToolContext, auditor: Auditor): Promise<Advisory[]> {
  const { names } = await readProjectFacts(ctx);
  const report = await runAudit(ctx, auditor, { names });
  if (auditor === "npm") return isRecord(report) ? parseNpmAudit(report) : [];
  if (auditor === "cargo-audit") return isRecord(report) ? parseCargoAudit(report) : [];
  return parsePipAudit(report);
}
