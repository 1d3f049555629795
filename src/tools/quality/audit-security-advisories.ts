// getSecurityAdvisories: every ecosystem of the workspace root audited at once (npm or pnpm from
// their lock files, pip-audit, govulncheck, cargo audit where installed), advisory by advisory:
// id, severity, vulnerable range, fixed-in versions and the dependency paths that bring the package
// in, grouped per ecosystem. An ecosystem whose auditor cannot run (offline, not installed, refused)
// says so in its group, with the command to run by hand; the others still answer.
import * as v from "valibot";
import type { ToolContext } from "../../capabilities/context.ts";
import { ToolError } from "../../errors.ts";
import {
  AUDIT_SEVERITIES,
  cargoFindings,
  type Finding,
  govulncheckFindings,
  govulncheckLegacyFindings,
  npm6Findings,
  npmFindings,
  pipFindings,
} from "../../services/audit/advisory-findings.ts";
import { auditCommand, type AuditProgram, runAudit } from "../../services/audit/audit-runs.ts";
import { isRecord, readProjectFacts } from "../../services/diagnostics/project-facts.ts";
import { defineTool } from "../platform/define-tool.ts";

const ECOSYSTEMS = ["npm", "pnpm", "yarn", "python", "go", "rust"] as const;
type Ecosystem = (typeof ECOSYSTEMS)[number];
const PROGRAM: Record<Ecosystem, AuditProgram> = {
  npm: "npm",
  pnpm: "pnpm",
  yarn: "yarn",
  python: "pip-audit",
  go: "govulncheck",
  rust: "cargo-audit",
};
const MAX_ADVISORIES = 60;

const FindingShape = v.object({
  id: v.string(),
  package: v.string(),
  versions: v.optional(v.array(v.string())),
  severity: v.picklist(AUDIT_SEVERITIES),
  title: v.string(),
  url: v.optional(v.string()),
  vulnerable: v.optional(v.string()),
  fixedIn: v.optional(v.array(v.string())),
  paths: v.optional(v.array(v.string())),
  fix: v.optional(v.string()),
});

const Group = v.object({
  ecosystem: v.picklist(ECOSYSTEMS),
  command: v.pipe(v.string(), v.description("The auditor's command line, to run by hand.")),
  status: v.picklist(["audited", "failed", "not_installed", "not_run"]),
  why: v.optional(v.string()),
  advisories: v.array(FindingShape),
  omitted: v.optional(v.number()),
});
type Group = v.InferOutput<typeof Group>;

export default defineTool({
  name: "getSecurityAdvisories",
  title: "Security advisories",
  description:
    "Lists dependency security advisories per ecosystem (npm/pnpm, pip-audit, govulncheck, cargo audit): id, severity, vulnerable range, fixed-in versions, dependency paths. Counts: auditDependencies.",
  searchHint: "security advisories vulnerabilities CVE GHSA dependency path fixed version npm pnpm audit govulncheck pip-audit cargo audit",
  input: v.strictObject({
    ecosystems: v.optional(
      v.pipe(
        v.array(v.picklist(ECOSYSTEMS)),
        v.minLength(1),
        v.description("Default: every one whose lock or manifest file is at the root."),
      ),
    ),
  }),
  output: v.object({ ecosystems: v.array(Group) }),
  annotations: { readOnlyHint: true, openWorldHint: true },
  timeoutMs: 300_000,
  async handler(input, ctx) {
    const { names } = await readProjectFacts(ctx);
    const ecosystems = input.ecosystems ?? detected(names);
    if (ecosystems.length === 0)
      throw new ToolError(
        "not_detected",
        "No package-lock.json, pnpm-lock.yaml, yarn.lock, requirements.txt, pyproject.toml, go.mod or Cargo.lock at the workspace root",
        {
          suggestion: "Pass ecosystems, or open the package's own directory as the workspace.",
        },
      );
    return { ecosystems: await Promise.all(ecosystems.map((e) => audited(ctx, e, names))) };
  },
});

function detected(names: ReadonlySet<string>): Ecosystem[] {
  const found: Ecosystem[] = [];
  if (names.has("package-lock.json") || names.has("npm-shrinkwrap.json")) found.push("npm");
  else if (names.has("pnpm-lock.yaml")) found.push("pnpm");
  else if (names.has("yarn.lock")) found.push("yarn");
  else if (names.has("package.json")) found.push("npm");
  if ([...names].some((n) => /^requirements.*\.txt$/.test(n)) || names.has("pyproject.toml")) found.push("python");
  if (names.has("go.mod")) found.push("go");
  if (names.has("Cargo.lock") || names.has("Cargo.toml")) found.push("rust");
  return found;
}

async function audited(ctx: ToolContext, ecosystem: Ecosystem, names: ReadonlySet<string>): Promise<Group> {
  const program = PROGRAM[ecosystem];
  const command = auditCommand(program, names).shown;
  let report: unknown;
  try {
    report = await runAudit(ctx, program, { names });
  } catch (err) {
    if (!(err instanceof ToolError) || err.code === "cancelled") throw err;
    const status = err.code === "probe_missing" ? "not_installed" : err.code === "tool_failed" ? "failed" : "not_run";
    return { ecosystem, command, status, why: `${err.message}${err.suggestion ? ` ${err.suggestion}` : ""}`, advisories: [] };
  }
  const findings = parsed(program, report).sort(
    (a, b) => AUDIT_SEVERITIES.indexOf(a.severity) - AUDIT_SEVERITIES.indexOf(b.severity) || a.package.localeCompare(b.package),
  );
  const group: Group = { ecosystem, command, status: "audited", advisories: findings.slice(0, MAX_ADVISORIES) };
  if (findings.length > MAX_ADVISORIES) group.omitted = findings.length - MAX_ADVISORIES;
  return group;
}

function parsed(program: AuditProgram, report: unknown): Finding[] {
  if (program === "govulncheck") {
    const messages = Array.isArray(report) ? report : [];
    // Before 1.0 the report is one object with its Vulns; since, a stream of messages.
    const legacy = messages.length === 1 && isRecord(messages[0]) && "Vulns" in messages[0] ? messages[0] : undefined;
    return legacy === undefined ? govulncheckFindings(messages) : govulncheckLegacyFindings(legacy);
  }
  if (program === "pip-audit") return pipFindings(report);
  if (!isRecord(report)) return [];
  if (program === "cargo-audit") return cargoFindings(report);
  // pnpm writes npm 6's report; npm 7+ its own (auditReportVersion 2).
  return isRecord(report.advisories) ? npm6Findings(report) : npmFindings(report);
}
