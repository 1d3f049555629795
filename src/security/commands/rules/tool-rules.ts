// The shape of one allowlisted tool's rules (src/security/commands/command-rules.ts has the table):
// what in its arguments makes it run a second program, which places on disk its arguments make it
// read or write beyond what the generic path rule sees, and which hosts they make it connect to.

export interface RuleVerdict {
  why: string;
  /** The runner subcommand (e.g. "npm exec") the user may allow with --allow-command. */
  runner?: string;
}

/** A host the arguments make the tool connect to (a URL, a registry, an ssh remote, a module path). */
export interface NetworkTarget {
  /** The argument it came from, for the message. */
  arg: string;
  host: string;
}

export interface ToolRules {
  /** Why the arguments must not run, or undefined. */
  verdict(args: readonly string[]): RuleVerdict | undefined;
  /** Paths the arguments name in a form the generic rule cannot read (`name@file:../x`, `-replace=a=../b`). */
  paths?(args: readonly string[]): string[];
  /** Hosts the arguments make the tool connect to. */
  targets?(args: readonly string[]): NetworkTarget[];
  /** Whether the arguments make the tool rewrite the files it visits in place (a formatter or fixer), and where it looks for them. */
  rewrites?(args: readonly string[]): InPlaceRewrite | undefined;
}

/**
 * Where an in-place rewrite looks for files: the tool's path arguments (or the command's directory
 * when it names none), or the whole workspace folder (go and cargo find packages and crates by
 * their manifests, above the command's directory too); `skips` are directory names it never enters.
 */
export interface InPlaceRewrite {
  scope: "arguments" | "folder";
  skips: readonly string[];
}

export const refuse = (why: string, runner?: string): RuleVerdict => (runner === undefined ? { why } : { why, runner });
