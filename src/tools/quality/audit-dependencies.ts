// auditDependencies: the project's auditor (npm audit, pip-audit, cargo audit) run for JSON and
// summarized: counts by severity and the advisories, worst first, with their fixes.
import * as v from "valibot";
import { JsonTextError, parseJsonCooperatively } from "../../lib/text/cooperative-json.ts";
import { ToolError } from "../../errors.ts";
import { isRecord, readProjectFacts } from "../../services/diagnostics/project-facts.ts";
import type { ToolContext } from "../../capabilities/context.ts";
import { defineTool } from "../platform/define-tool.ts";
import { AUDIT_SEVERITIES, parseCargoAudit, parseNpmAudit, parsePipAudit, type Advisory } from "./audit-reports.ts";

const AUDITORS = ["npm", "pip-audit", "cargo-audit"] as const;
type Auditor = (typeof AUDITORS)[number];
const MAX_ADVISORIES = 100;

export default defineTool({
  name: "auditDependencies",
  title: "Audit dependencies",
  description:
    "Audits the project's dependencies for known vulnerabilities (npm audit, pip-audit, cargo audit) and summarizes them by severity with the fixes.",
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
  // npm audit reads the lock file only; without one it can only fail, after seconds of start-up.
  if (auditor === "npm" && !names.has("package-lock.json") && !names.has("npm-shrinkwrap.json")) {
    throw new ToolError("not_detected", "npm audit needs package-lock.json, and the workspace root has none", {
      suggestion: "Create it with runCommand npm install --package-lock-only, then audit again.",
    });
  }
  const requirements = [...names].find((n) => /^requirements.*\.txt$/.test(n));
  const commands: Record<Auditor, { program: string; args: string[] }> = {
    npm: { program: "npm", args: ["audit", "--json"] },
    // cargo audit is the cargo-audit plugin, found by cargo on PATH.
    "cargo-audit": { program: "cargo", args: ["audit", "--json"] },
    "pip-audit": { program: "pip-audit", args: ["-f", "json", ...(requirements === undefined ? ["."] : ["-r", requirements])] },
  };
  const { program, args } = commands[auditor];
  const result = await ctx.exec.runToolchain(program, {
    args,
    timeoutMs: 240_000,
    maxOutputBytes: 32 * 1024 * 1024,
    env: { NO_COLOR: "1" },
  });
  let report: unknown;
  try {
    report = await parseJsonCooperatively(result.stdout.slice(Math.max(0, result.stdout.search(/[[{]/))));
  } catch (err) {
    if (!(err instanceof JsonTextError)) throw err;
    throw new ToolError(
      "tool_failed",
      `${auditor} gave no JSON report (exit ${result.exitCode}): ${(result.stderr || result.stdout).trim().split("\n").slice(-5).join("\n").slice(0, 1500)}`,
      {
        suggestion:
          auditor === "cargo-audit"
            ? "Install cargo-audit (cargo install cargo-audit) where the bridge finds it."
            : "Run the audit in a terminal to see what it needs (a lock file, network access to the advisory database).",
      },
    );
  }
  if (isRecord(report) && isRecord(report.error)) {
    throw new ToolError("tool_failed", `${auditor} failed: ${String(report.error.summary ?? report.error.code ?? "unknown error")}`, {
      suggestion: "The audit needs network access to the advisory database and a lock file; check both.",
    });
  }
  if (auditor === "npm") return isRecord(report) ? parseNpmAudit(report) : [];
  if (auditor === "cargo-audit") return isRecord(report) ? parseCargoAudit(report) : [];
  return parsePipAudit(report);
}
