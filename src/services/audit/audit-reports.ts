// The auditors' JSON reports read into one list of advisories: npm audit --json (npm 7+),
// pip-audit -f json, cargo audit --json. Only npm's report has severities; the others' advisories
// are "unknown" until one is looked up.
import { isRecord } from "../diagnostics/project-facts.ts";

export const AUDIT_SEVERITIES = ["critical", "high", "moderate", "low", "info", "unknown"] as const;
type AuditSeverity = (typeof AUDIT_SEVERITIES)[number];

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
  const deps = isRecord(report) && Array.isArray(report.dependencies) ? report.dependencies : Array.isArray(report) ? report : [];
  return deps.filter(isRecord).flatMap((dep) =>
    (Array.isArray(dep.vulns) ? dep.vulns.filter(isRecord) : []).map((vuln) => {
      const aliases = Array.isArray(vuln.aliases) ? vuln.aliases.map(String) : [];
      const advisory: Advisory = {
        package: `${String(dep.name)}@${String(dep.version)}`,
        severity: "unknown",
        title: [String(vuln.id ?? "?"), ...aliases].join(" / "),
      };
      const fixes = Array.isArray(vuln.fix_versions) ? vuln.fix_versions.map(String) : [];
      if (fixes.length > 0) advisory.fix = `upgrade to ${fixes.join(" or ")}`;
      return advisory;
    }),
  );
}

export function parseCargoAudit(report: Record<string, unknown>): Advisory[] {
  const list = isRecord(report.vulnerabilities) && Array.isArray(report.vulnerabilities.list) ? report.vulnerabilities.list : [];
  return list.filter(isRecord).map((entry) => {
    const adv = isRecord(entry.advisory) ? entry.advisory : {};
    const pkg = isRecord(entry.package) ? entry.package : {};
    const advisory: Advisory = {
      package: `${String(pkg.name ?? adv.package ?? "?")}@${String(pkg.version ?? "?")}`,
      severity: "unknown",
      title: `${String(adv.id ?? "?")}: ${String(adv.title ?? "")}`,
    };
    if (typeof adv.url === "string") advisory.url = adv.url;
    const patched = isRecord(entry.versions) && Array.isArray(entry.versions.patched) ? entry.versions.patched.map(String) : [];
    if (patched.length > 0) advisory.fix = `upgrade to ${patched.join(" or ")}`;
    return advisory;
  });
}

export function severityOf(value: unknown): AuditSeverity {
  return AUDIT_SEVERITIES.find((s) => s === value) ?? "unknown";
}
