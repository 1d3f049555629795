// runCommand's policy, in one place (DESIGN.md, "Security in one place each"). What the user asks
// the bridge to run passes four checks before anything starts, and a fifth after PATH lookup:
//   1. the command is a bare program name: no path, no shell syntax (there is no shell at all);
//   2. it is never an interpreter, shell or command runner (src/security/commands/interpreters.ts), whatever
//      --allow-command says;
//   3. it is on the allowlist: the defaults below plus --allow-command;
//   4. its arguments pass that tool's rules (src/security/commands/command-rules.ts: no second program,
//      inline code, package runner or config that names programs) and the lexical path rule
//      (src/security/commands/argument-paths.ts: nothing outside the workspace);
//   5. what needs the disk or the network (src/security/commands/command-reach.ts): symlinks in the
//      arguments' paths, response and overlay files, links to outside in the trees a formatter or
//      fixer rewrites in place, the hosts the arguments make the tool reach;
//   6. the executable PATH gives is not an interpreter under another name or path
//      (src/security/commands/executable-identity.ts).
// Aliases are expanded before check 4 as the tool expands them (src/security/commands/expand-arguments.ts).
import { BridgeError } from "../../errors.ts";
import { argumentOutside, type ArgumentPlace } from "./argument-paths.ts";
import { RUNNER_SUBCOMMANDS, TOOL_RULES } from "./command-rules.ts";
import { CARGO_BUILTINS } from "./rules/cargo-rules.ts";
import { isNeverAllowed } from "./interpreters.ts";

/** The original bridge's allowlist. */
const DEFAULT_ALLOWED_COMMANDS = ["git", "npm", "cargo", "go", "pytest", "jest", "vitest", "tsc", "eslint", "biome"] as const;

export interface CommandPolicy {
  /** Programs runCommand may start. */
  readonly commands: ReadonlySet<string>;
  /** Runner subcommands the user allowed by name ("npm exec"). */
  readonly runners: ReadonlySet<string>;
}

export interface Refusal {
  why: string;
  suggestion: string;
}

const PROGRAM_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.+-]*$/;

/** Why an --allow-command entry cannot be accepted, or undefined. */
export function allowEntryProblem(entry: string): string | undefined {
  const [command = "", sub, ...more] = entry.trim().split(/\s+/);
  if (!PROGRAM_NAME.test(command) || more.length > 0)
    return `"${entry}" is not a program name (a bare name like "make-docs", or "npm exec" for a runner subcommand)`;
  if (isNeverAllowed(command))
    return `"${command}" runs code or commands given in its arguments (an interpreter, shell or command runner) and can never be allowed`;
  if (sub !== undefined && !RUNNER_SUBCOMMANDS.includes(`${command} ${sub}`) && !isCargoPlugin(command, sub))
    return `"${entry}": only these subcommands can be allowed by name: ${RUNNER_SUBCOMMANDS.join(", ")}, and a cargo plugin ("cargo watch")`;
  return undefined;
}

/** A cargo-<name> program, run as `cargo <name>`: the user may allow one they installed. */
function isCargoPlugin(command: string, sub: string): boolean {
  return command === "cargo" && /^[a-z0-9][a-z0-9_-]*$/.test(sub) && !CARGO_BUILTINS.has(sub);
}

/** The policy for the defaults plus `extra` (--allow-command); a bad entry is a BridgeError. */
export function createCommandPolicy(extra: readonly string[]): CommandPolicy {
  const commands = new Set<string>(DEFAULT_ALLOWED_COMMANDS);
  const runners = new Set<string>();
  for (const entry of extra) {
    const problem = allowEntryProblem(entry);
    if (problem !== undefined) throw new BridgeError("config_invalid", `--allow-command: ${problem}`);
    const [command = "", sub] = entry.trim().split(/\s+/);
    if (sub === undefined) commands.add(command);
    else runners.add(`${command} ${sub}`);
  }
  return { commands, runners };
}

/** Checks 1-4 for `command args`, run in `place`; undefined when it may run. */
export function checkCommandLine(
  policy: CommandPolicy,
  line: { command: string; args: readonly string[]; place: ArgumentPlace },
): Refusal | undefined {
  const { command, args, place } = line;
  if (!PROGRAM_NAME.test(command)) {
    return {
      why: `\`${command.slice(0, 80)}\` is not a program name: runCommand takes no paths and no shell syntax (there is no shell)`,
      suggestion: 'Pass the program as `command` (e.g. "npm") and each argument as an element of `args` (e.g. ["run", "build"]).',
    };
  }
  if (isNeverAllowed(command)) {
    return {
      why: `\`${command}\` is an interpreter, shell or command runner, which runCommand never runs`,
      suggestion: "Run the project's own entry points instead (e.g. an npm script with `npm run <script>`), or use runTests for tests.",
    };
  }
  if (!policy.commands.has(command)) {
    return {
      why: `\`${command}\` is not on the bridge's command allowlist (${[...policy.commands].join(", ")})`,
      suggestion: `Use an allowlisted command, or ask the user to restart the bridge with --allow-command ${command}.`,
    };
  }
  const bad = args.find((a) => a.includes("\0"));
  if (bad !== undefined) return { why: "An argument contains a NUL byte", suggestion: "Remove the NUL byte." };
  const rules = TOOL_RULES[command];
  const verdict = rules?.verdict(args);
  if (verdict !== undefined && (verdict.runner === undefined || !policy.runners.has(verdict.runner))) {
    const allow =
      verdict.runner === undefined ? "" : ` Allowing it is the user's choice: restart the bridge with --allow-command "${verdict.runner}".`;
    return { why: `Refused: ${verdict.why}`, suggestion: `Run the project's own scripts, tests or builds instead.${allow}` };
  }
  const outside = argumentOutside(args, place, { extraPaths: rules?.paths?.(args) ?? [] });
  if (outside !== undefined) {
    return {
      why: `The argument \`${outside.arg.slice(0, 200)}\` points outside the workspace (${outside.path})`,
      suggestion: "Use paths inside the workspace, relative to the command's cwd.",
    };
  }
  return undefined;
}
