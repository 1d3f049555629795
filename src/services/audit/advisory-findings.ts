// The auditors' JSON reports read advisory by advisory, for getSecurityAdvisories: each advisory
// once, with its id, severity (where the report has one), the vulnerable range, the versions that
// fix it, and the dependency paths that bring the package in. auditDependencies' summary per
// package (audit-reports.ts) reads the same reports coarser. Shapes: npm audit --json (npm 7+,
// auditReportVersion 2), pnpm audit --json (npm 6's "advisories"), pip-audit -f json, cargo-audit
// --json, govulncheck -json: a stream of JSON objects since govulncheck 1.0, one {"Vulns": [...]}
// object before it (the one Debian 12 packages, met for real in test/e2e/audit-govulncheck.test.ts).
import { isRecord } from "../diagnostics/project-facts.ts";

/** Worst first. */
export const AUDIT_SEVERITIES = ["critical", "high", "moderate", "low", "info", "unknown"] as const;
export type AuditSeverity = (typeof AUDIT_SEVERITIES)[number];

export interface Finding {
  /** GHSA, CVE, PYSEC, RUSTSEC or GO id (the report's own when it has no such id). */
  id: string;
  package: string;
  /** Installed versions, when the report says. */
  versions?: string[];
  severity: AuditSeverity;
  title: string;
  url?: string;
  /** The vulnerable range, as the advisory gives it. */
  vulnerable?: string;
  /** The versions (or range) that fix it. */
  fixedIn?: string[];
  /** How the package is reached, "direct > ... > package"; at most MAX_PATHS. */
  paths?: string[];
  /** What the package manager would change to fix it, when it says. */
  fix?: string;
}

const MAX_PATHS = 5;

/** npm 7+: one finding per advisory a vulnerable package has itself; packages only "through" another get a path instead. */
export function npmFindings(report: Record<string, unknown>): Finding[] {
  const vulns = isRecord(report.vulnerabilities) ? report.vulnerabilities : {};
  const entry = (name: string) => (isRecord(vulns[name]) ? vulns[name] : undefined);
  return Object.entries(vulns).flatMap(([name, vuln]) => {
    if (!isRecord(vuln)) return [];
    const advisories = (Array.isArray(vuln.via) ? vuln.via : []).filter(isRecord);
    const paths = npmPaths(name, entry);
    return advisories.map((via) => {
      const url = typeof via.url === "string" ? via.url : undefined;
      const finding: Finding = {
        id: /GHSA-[\w-]+$/.exec(url ?? "")?.[0] ?? String(via.source ?? "?"),
        package: String(via.name ?? name),
        severity: severityOf(via.severity ?? vuln.severity),
        title: String(via.title ?? "vulnerable"),
      };
      if (url !== undefined) finding.url = url;
      if (typeof via.range === "string") finding.vulnerable = via.range;
      if (paths.length > 0) finding.paths = paths;
      const fix = vuln.fixAvailable;
      if (fix === true) finding.fix = "npm audit fix";
      else if (isRecord(fix))
        finding.fix = `${String(fix.name)}@${String(fix.version)}${fix.isSemVerMajor === true ? " (semver-major, npm audit fix --force)" : ""}`;
      else if (fix === false) finding.fix = "none published";
      return finding;
    });
  });
}

/** Up the report's `effects` (the packages vulnerable through this one) to the direct dependencies. */
function npmPaths(name: string, entry: (name: string) => Record<string, unknown> | undefined): string[] {
  const paths: string[] = [];
  const walk = (chain: string[]) => {
    if (paths.length >= MAX_PATHS) return;
    const top = entry(chain[0] as string);
    const up = Array.isArray(top?.effects) ? top.effects.map(String).filter((e) => !chain.includes(e)) : [];
    if (top?.isDirect === true || up.length === 0) paths.push(chain.join(" > "));
    for (const e of up) walk([e, ...chain]);
  };
  walk([name]);
  return paths;
}

/** npm 6's report, which pnpm audit --json still writes: advisories by id, each with its findings' paths. */
export function npm6Findings(report: Record<string, unknown>): Finding[] {
  const advisories = isRecord(report.advisories) ? Object.values(report.advisories).filter(isRecord) : [];
  return advisories.map((adv) => {
    const found = (Array.isArray(adv.findings) ? adv.findings : []).filter(isRecord);
    const finding: Finding = {
      id: String(adv.github_advisory_id ?? adv.id ?? "?"),
      package: String(adv.module_name ?? "?"),
      severity: severityOf(adv.severity),
      title: String(adv.title ?? "vulnerable"),
    };
    const versions = [...new Set(found.map((f) => String(f.version ?? "")).filter((v) => v !== ""))];
    if (versions.length > 0) finding.versions = versions;
    if (typeof adv.url === "string") finding.url = adv.url;
    if (typeof adv.vulnerable_versions === "string") finding.vulnerable = adv.vulnerable_versions;
    if (typeof adv.patched_versions === "string" && adv.patched_versions !== "<0.0.0") finding.fixedIn = [adv.patched_versions];
    const paths = found.flatMap((f) => (Array.isArray(f.paths) ? f.paths.map((p) => String(p).split(">").join(" > ")) : []));
    if (paths.length > 0) finding.paths = [...new Set(paths)].slice(0, MAX_PATHS);
    return finding;
  });
}

/** pip-audit: per dependency, its vulnerabilities with the fixing versions (no severities, no paths). */
export function pipFindings(report: unknown): Finding[] {
  const deps = isRecord(report) && Array.isArray(report.dependencies) ? report.dependencies : Array.isArray(report) ? report : [];
  return deps.filter(isRecord).flatMap((dep) =>
    (Array.isArray(dep.vulns) ? dep.vulns.filter(isRecord) : []).map((vuln) => {
      const aliases = Array.isArray(vuln.aliases) ? vuln.aliases.map(String) : [];
      const finding: Finding = {
        id: [String(vuln.id ?? "?"), ...aliases].join(" / "),
        package: String(dep.name ?? "?"),
        versions: [String(dep.version ?? "?")],
        severity: "unknown",
        title: firstSentence(vuln.description) ?? String(vuln.id ?? "vulnerable"),
      };
      const fixes = Array.isArray(vuln.fix_versions) ? vuln.fix_versions.map(String) : [];
      if (fixes.length > 0) finding.fixedIn = fixes;
      return finding;
    }),
  );
}

/** cargo-audit: the vulnerabilities list (warnings such as unmaintained crates are not advisories of a flaw). */
export function cargoFindings(report: Record<string, unknown>): Finding[] {
  const list = isRecord(report.vulnerabilities) && Array.isArray(report.vulnerabilities.list) ? report.vulnerabilities.list : [];
  return list.filter(isRecord).map((entry) => {
    const adv = isRecord(entry.advisory) ? entry.advisory : {};
    const pkg = isRecord(entry.package) ? entry.package : {};
    const aliases = Array.isArray(adv.aliases) ? adv.aliases.map(String) : [];
    const finding: Finding = {
      id: [String(adv.id ?? "?"), ...aliases].join(" / "),
      package: String(pkg.name ?? adv.package ?? "?"),
      versions: [String(pkg.version ?? "?")],
      severity: "unknown",
      title: String(adv.title ?? "vulnerable"),
    };
    // `url` is the advisory's own reference, often null; every advisory has its page on rustsec.org.
    if (typeof adv.url === "string") finding.url = adv.url;
    else if (typeof adv.id === "string" && /^RUSTSEC-\d{4}-\d{4}$/.test(adv.id)) finding.url = `https://rustsec.org/advisories/${adv.id}`;
    const patched = isRecord(entry.versions) && Array.isArray(entry.versions.patched) ? entry.versions.patched.map(String) : [];
    if (patched.length > 0) finding.fixedIn = patched;
    return finding;
  });
}

/**
 * govulncheck -json: "osv" messages describe advisories, "finding" messages place them; a finding
 * whose first frame names a function is code that calls the vulnerable symbol, the others only
 * import the package or require the module. One finding per advisory, its call paths first.
 */
export function govulncheckFindings(messages: readonly unknown[]): Finding[] {
  const osvs = new Map<string, Record<string, unknown>>();
  const byId = new Map<string, Finding>();
  for (const m of messages) if (isRecord(m) && isRecord(m.osv)) osvs.set(String(m.osv.id), m.osv);
  for (const m of messages) {
    if (!isRecord(m) || !isRecord(m.finding)) continue;
    const id = String(m.finding.osv ?? "?");
    const trace = (Array.isArray(m.finding.trace) ? m.finding.trace : []).filter(isRecord);
    const vulnerable = trace[0] ?? {};
    const osv = osvs.get(id) ?? {};
    const finding = byId.get(id) ?? {
      id,
      package: String(vulnerable.module ?? "?"),
      severity: "unknown",
      title: String(osv.summary ?? id),
    };
    if (typeof vulnerable.version === "string") finding.versions = [vulnerable.version];
    if (typeof m.finding.fixed_version === "string") finding.fixedIn = [m.finding.fixed_version];
    const url = isRecord(osv.database_specific) ? osv.database_specific.url : undefined;
    if (typeof url === "string") finding.url = url;
    if (typeof vulnerable.function === "string") {
      const calls = [...trace].reverse().map((f) => [f.package, f.receiver, f.function].filter((x) => typeof x === "string").join("."));
      finding.paths = [...new Set([`calls: ${calls.join(" > ")}`, ...(finding.paths ?? [])])].slice(0, MAX_PATHS);
    }
    byId.set(id, finding);
  }
  return [...byId.values()].map((f) => (f.paths === undefined ? { ...f, paths: ["imported, not called"] } : f));
}

/**
 * govulncheck before 1.0 (-json prints its Result with Go's field names): per vulnerability its OSV
 * entry and the modules found, each with the packages imported and, where they are called, one
 * call stack per vulnerable symbol, from the entry point down.
 */
export function govulncheckLegacyFindings(result: Record<string, unknown>): Finding[] {
  const vulns = (Array.isArray(result.Vulns) ? result.Vulns : []).filter(isRecord);
  return vulns.flatMap((vuln) => {
    const osv = isRecord(vuln.OSV) ? vuln.OSV : {};
    const id = String(osv.id ?? "?");
    const affected = (Array.isArray(osv.affected) ? osv.affected : []).filter(isRecord);
    const url = affected
      .map((a) => (isRecord(a.database_specific) ? a.database_specific.url : undefined))
      .find((u) => typeof u === "string");
    return (Array.isArray(vuln.Modules) ? vuln.Modules : []).filter(isRecord).map((module) => {
      const finding: Finding = {
        id: [id, ...(Array.isArray(osv.aliases) ? osv.aliases.map(String) : [])].join(" / "),
        package: String(module.Path ?? "?"),
        severity: "unknown",
        title: firstSentence(osv.summary) ?? firstSentence(osv.details) ?? id,
      };
      if (typeof module.FoundVersion === "string" && module.FoundVersion !== "") finding.versions = [module.FoundVersion];
      if (typeof module.FixedVersion === "string" && module.FixedVersion !== "") finding.fixedIn = [module.FixedVersion];
      if (typeof url === "string") finding.url = url;
      const packages = (Array.isArray(module.Packages) ? module.Packages : []).filter(isRecord);
      const calls = packages.flatMap((p) => (Array.isArray(p.CallStacks) ? p.CallStacks.filter(isRecord) : []).map(legacyCallPath));
      finding.paths =
        calls.length > 0
          ? [...new Set(calls)].slice(0, MAX_PATHS)
          : [`imported, not called: ${packages.map((p) => String(p.Path)).join(", ")}`];
      return finding;
    });
  });
}

function legacyCallPath(stack: Record<string, unknown>): string {
  const frames = (Array.isArray(stack.Frames) ? stack.Frames : []).filter(isRecord);
  const names = frames.map((f) => [f.PkgPath, f.RecvType, f.FuncName].filter((x) => typeof x === "string" && x !== "").join("."));
  return `calls: ${names.length > 0 ? names.join(" > ") : String(stack.Symbol ?? "?")}`;
}

/** A stream of JSON values written one after another (govulncheck -json), split into its values. */
export function jsonStream(text: string): unknown[] {
  const values: unknown[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{" || c === "[") {
      if (depth++ === 0) start = i;
    } else if ((c === "}" || c === "]") && --depth === 0) {
      try {
        values.push(JSON.parse(text.slice(start, i + 1)));
      } catch {
        // A value cut short (the output cap) ends the stream.
        break;
      }
    }
  }
  return values;
}

export function severityOf(value: unknown): AuditSeverity {
  return AUDIT_SEVERITIES.find((s) => s === value) ?? "unknown";
}

function firstSentence(text: unknown): string | undefined {
  if (typeof text !== "string" || text.trim() === "") return undefined;
  const line = text.trim().split(/(?<=\.)\s|\n/)[0] ?? "";
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}
