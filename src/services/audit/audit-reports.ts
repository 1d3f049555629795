// The auditors' JSON reports read into one summary line per vulnerable package, for
// auditDependencies: npm audit --json (npm 7+, one entry per package, those vulnerable only through
// another included), pip-audit -f json and cargo audit --json (read by advisory-findings.ts, one
// line per advisory). Only npm's report has severities; the others' advisories are "unknown" until
// one is looked up.
import { isRecord } from "../diagnostics/project-facts.ts";
import { type AuditSeverity, cargoFindings, type Finding, pipFindings, severityOf } from "./advisory-findings.ts";

export interface Advisory {
  package: string;
  severity: AuditSeverity;
  title: string;
  url?: string;
  /** How to fix it, when the auditor says. */
  fix?: string;
}

export function parseNpmAudit(report: Record<string, unknown>): Advisory[] {
  const vulns = isRecord(report.vulnerabilities) ? report.vulnerabilities : {};
  return Object.values(vulns)
    .filter(isRecord)
    .map((vuln) => {
      const via = Array.isArray(vuln.via) ? vuln.via : [];
      const direct = via.find(isRecord);
      const through = via.filter((x): x is string => typeof x === "string");
      const advisory: Advisory = {
        package: String(vuln.name ?? "?"),
        severity: severityOf(vuln.severity),
        title: direct !== undefined ? String(direct.title ?? "vulnerable") : `through ${through.join(", ") || "a dependency"}`,
      };
      if (direct !== undefined && typeof direct.url === "string") advisory.url = direct.url;
      const fix = vuln.fixAvailable;
      if (fix === true) advisory.fix = "npm audit fix";
      else if (isRecord(fix))
        advisory.fix = `${String(fix.name)}@${String(fix.version)}${fix.isSemVerMajor === true ? " (semver-major)" : ""}`;
      return advisory;
    });
}

export function parsePipAudit(report: unknown): Advisory[] {
  return pipFindings(report).map((f) => summary(f, f.id));
}

export function parseCargoAudit(report: Record<string, unknown>): Advisory[] {
  return cargoFindings(report).map((f) => summary(f, `${f.id}: ${f.title}`));
}

function summary(finding: Finding, title: string): Advisory {
  const advisory: Advisory = { package: `${finding.package}@${finding.versions?.[0] ?? "?"}`, severity: finding.severity, title };
  if (finding.url !== undefined) advisory.url = finding.url;
  if (finding.fixedIn !== undefined) advisory.fix = `upgrade to ${finding.fixedIn.join(" or ")}`;
  return advisory;
}
