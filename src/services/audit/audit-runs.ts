// How each ecosystem's auditor is run for a JSON report, for auditDependencies and
// getSecurityAdvisories. None of these command lines runs code the workspace wrote or chose:
//   - npm audit reads the lock file and asks the registry; it runs no lifecycle script (only
//     `npm audit fix` installs). .npmrc is judged by ctx.exec's project-config check.
//   - pnpm loads .pnpmfile.cjs (a readPackage hook is JavaScript) for every command that reads the
//     project's config: --ignore-pnpmfile turns that off. The hosts its .npmrc or
//     pnpm-workspace.yaml name are not judged by ctx.exec (it does so for npm's only), so pnpm is
//     not run when the workspace names a registry or proxy: the lock file's packages would go there.
//   - yarn is never run: Yarn 1 runs the file `yarn-path` in .yarnrc names, Yarn 2+ the `yarnPath`
//     and `plugins` of .yarnrc.yml, and no flag of Yarn 2+ skips them. The answer says so and
//     gives the command for the user's own terminal.
//   - cargo-audit is started itself (`cargo-audit audit`, as cargo would start it), not through
//     `cargo audit`: a workspace's .cargo/config.toml may define an alias `audit` (aliases win
//     over external subcommands), and `audit = "run"` would build and run the workspace's code.
//   - pip-audit audits the requirements file (or the project directory), resolving in its own
//     isolated environment; govulncheck reads the module's source and the Go vulnerability
//     database (GOVULNDB, before govulncheck 1.0, names a mirror or a local copy). It runs with
//     GOTOOLCHAIN=local: a go.mod's toolchain line would otherwise have go fetch and run another
//     toolchain the workspace chose.
import type { ToolContext } from "../../capabilities/context.ts";
import { ToolError } from "../../errors.ts";
import { JsonTextError, parseJsonCooperatively } from "../../lib/text/cooperative-json.ts";
import { isRecord } from "../diagnostics/project-facts.ts";
import { jsonStream } from "./advisory-findings.ts";

export const AUDIT_PROGRAMS = ["npm", "pnpm", "yarn", "pip-audit", "govulncheck", "cargo-audit"] as const;
export type AuditProgram = (typeof AUDIT_PROGRAMS)[number];

interface AuditCommand {
  program: string;
  args: string[];
  /** The command as a user would type it in the workspace. */
  shown: string;
}

/** The argv of one auditor in the workspace root, whose top-level names are `names`. */
export function auditCommand(program: AuditProgram, names: ReadonlySet<string>): AuditCommand {
  const requirements = [...names].find((n) => /^requirements.*\.txt$/.test(n));
  const argv: Record<AuditProgram, [string, string[]]> = {
    npm: ["npm", ["audit", "--json"]],
    pnpm: ["pnpm", ["audit", "--json", "--ignore-pnpmfile"]],
    yarn: ["yarn", names.has(".yarnrc.yml") ? ["npm", "audit", "--json", "--recursive"] : ["audit", "--json"]],
    "pip-audit": ["pip-audit", ["-f", "json", ...(requirements === undefined ? ["."] : ["-r", requirements])]],
    govulncheck: ["govulncheck", ["-json", "./..."]],
    "cargo-audit": ["cargo-audit", ["audit", "--json"]],
  };
  const [bin, args] = argv[program];
  const shown = program === "cargo-audit" ? `cargo ${args.join(" ")}` : `${bin} ${args.join(" ")}`;
  return { program: bin, args, shown };
}

/** What an auditor needs at the workspace root before it can answer, or undefined when it is there. */
export function missingInput(program: AuditProgram, names: ReadonlySet<string>): { why: string; fix: string } | undefined {
  if (program === "npm" && !names.has("package-lock.json") && !names.has("npm-shrinkwrap.json"))
    return { why: "npm audit needs package-lock.json, and the workspace root has none", fix: "npm install --package-lock-only" };
  if (program === "cargo-audit" && !names.has("Cargo.lock"))
    return { why: "cargo audit needs Cargo.lock, and the workspace root has none", fix: "cargo generate-lockfile" };
  return undefined;
}

/**
 * Runs the auditor and returns its report: the JSON value (govulncheck: the list of its messages).
 * Throws ToolError when it cannot run or gives no report, naming the command to run by hand.
 */
export async function runAudit(ctx: ToolContext, program: AuditProgram, opts: { names: ReadonlySet<string> }): Promise<unknown> {
  const { names } = opts;
  const command = auditCommand(program, names);
  if (program === "yarn")
    throw new ToolError(
      "command_refused",
      "The bridge does not run yarn: it loads code the workspace names (.yarnrc's yarn-path, .yarnrc.yml's yarnPath and plugins)",
      {
        suggestion: `Run \`${command.shown}\` in your own terminal, or audit through npm (npm install --package-lock-only, then npm audit).`,
      },
    );
  if (program === "pnpm") await refuseWorkspaceHosts(ctx, { names, shown: command.shown });
  const missing = missingInput(program, names);
  if (missing !== undefined)
    throw new ToolError("not_detected", missing.why, { suggestion: `Create it with runCommand ${missing.fix}, then audit again.` });
  const result = await ctx.exec.runToolchain(command.program, {
    args: command.args,
    timeoutMs: 240_000,
    maxOutputBytes: 32 * 1024 * 1024,
    env: { NO_COLOR: "1", ...(program === "govulncheck" ? { GOTOOLCHAIN: "local" } : {}) },
  });
  const said = () => (result.stderr || result.stdout).trim().split("\n").slice(-5).join("\n").slice(0, 1500);
  if (program === "govulncheck") {
    const messages = jsonStream(result.stdout);
    if (messages.length === 0) throw noReport(command, `exit ${result.exitCode}: ${said()}`);
    return messages;
  }
  let report: unknown;
  try {
    report = await parseJsonCooperatively(result.stdout.slice(Math.max(0, result.stdout.search(/[[{]/))));
  } catch (err) {
    if (!(err instanceof JsonTextError)) throw err;
    throw noReport(command, `exit ${result.exitCode}: ${said()}`);
  }
  if (isRecord(report) && isRecord(report.error)) {
    // npm's own failure report: offline, the registry refusing, a lock file it cannot read.
    throw new ToolError(
      "tool_failed",
      `\`${command.shown}\` failed: ${String(report.error.summary ?? report.error.code ?? "unknown error")}`,
      {
        suggestion: `The audit asks the registry for advisories: check the network and the registry, or run \`${command.shown}\` in a terminal to see more.`,
      },
    );
  }
  return report;
}

/** A registry or proxy setting, scoped (`@scope:registry`) or not, in .npmrc (`key=`) or YAML (`key:`). */
const HOST_SETTING = /^\s*(?:@[^:=\s]+:)?(?:registry|registries|https-proxy|proxy)\s*[=:]/m;

async function refuseWorkspaceHosts(ctx: ToolContext, opts: { names: ReadonlySet<string>; shown: string }): Promise<void> {
  for (const file of [".npmrc", "pnpm-workspace.yaml"]) {
    if (!opts.names.has(file)) continue;
    const text = await ctx.fs.readText(file, { maxBytes: 256 * 1024 }).catch(() => "");
    if (!HOST_SETTING.test(text)) continue;
    throw new ToolError(
      "command_refused",
      `The workspace's ${file} names a registry or proxy, which the bridge does not check for pnpm: pnpm audit would send the lock file's packages there`,
      {
        suggestion: `Run \`${opts.shown}\` in your own terminal, or audit with npm (npm install --package-lock-only, then getSecurityAdvisories), whose .npmrc hosts the bridge checks.`,
      },
    );
  }
}

function noReport(command: AuditCommand, detail: string): ToolError {
  return new ToolError("tool_failed", `\`${command.shown}\` gave no JSON report (${detail})`, {
    suggestion: `Run \`${command.shown}\` in a terminal to see what it needs (a lock file, network access to the advisory database).`,
  });
}
