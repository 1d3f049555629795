// runCommand's git, beyond the allowlist's argument rules (src/security/commands/command-rules.ts):
// what a git command line may do once the repository's own programs are neutralised (the runner,
// src/capabilities/exec/git-runner.ts). The lines drawn here: no write outside the workspace
// through git's own path options, none of the user's credentials or global config printed, no
// program of someone else's choosing (a browser, man, a push target's hooks, a scheduler entry),
// and the access the runner neutralises for (reads, changes, transports) read off the subcommand.
import { positionals } from "../commands/option-match.ts";
import type { GitAccess } from "./repo-config-guard.ts";

/** git's options before the subcommand that take a value as the next argument. */
const VALUE_OPTIONS = [
  "-C",
  "-c",
  "--git-dir",
  "--work-tree",
  "--namespace",
  "--super-prefix",
  "--config-env",
  "--exec-path",
  "--attr-source",
];

/** Subcommands that only read (with a repository's filters made optional, so status still answers). */
const READS = new Set([
  "status",
  "diff",
  "log",
  "show",
  "blame",
  "annotate",
  "shortlog",
  "ls-files",
  "ls-tree",
  "grep",
  "rev-parse",
  "rev-list",
  "cat-file",
  "describe",
  "reflog",
  "whatchanged",
  "diff-files",
  "diff-index",
  "diff-tree",
  "for-each-ref",
  "show-ref",
  "show-branch",
  "name-rev",
  "merge-base",
  "check-ignore",
  "check-attr",
  "count-objects",
  "var",
  "version",
  "range-diff",
]);

/** Subcommands that reach a remote (the runner refuses a repository whose transport keys it cannot override). */
const TRANSPORTS = new Set(["fetch", "pull", "clone", "ls-remote", "remote", "submodule", "archive", "fetch-pack", "bundle"]);

const REFUSED: Readonly<Record<string, string>> = {
  push: "runs the hooks of a push target on this machine (a local repository's), which no setting here can switch off; gitPush pushes with them off and guards main",
  "send-pack": "pushes like `git push`; use gitPush",
  help: "opens man or a browser; `git <command> -h` prints the usage instead",
  "imap-send": "runs the imap.tunnel command and sends mail",
  "fsmonitor--daemon": "starts a daemon that outlives the call",
  svn: "runs Subversion tooling",
  p4: "runs Perforce tooling",
  cvsimport: "runs CVS tooling",
  cvsserver: "is a server",
  cvsexportcommit: "runs CVS tooling",
  archimport: "runs GNU Arch tooling",
  quiltimport: "runs quilt patches through a shell",
  gui: "opens a window",
  citool: "opens a window",
};

export interface GitCommandLine {
  /** Options before the subcommand (-C, --git-dir...): they choose the repository. */
  global: readonly string[];
  sub: string | undefined;
  /** What follows the subcommand. */
  rest: readonly string[];
  access: GitAccess;
}

export function readGitCommandLine(args: readonly string[]): GitCommandLine {
  const end = args.indexOf("--");
  const own = end === -1 ? args : args.slice(0, end);
  const [sub] = positionals(own, VALUE_OPTIONS);
  const at = sub === undefined ? own.length : own.indexOf(sub);
  const rest = args.slice(at + 1);
  const access: GitAccess = sub === undefined || READS.has(sub) ? "read" : TRANSPORTS.has(sub) ? "remote" : "write";
  return { global: args.slice(0, at), sub, rest, access };
}

/** Why runCommand refuses this git command line, or undefined. */
export function gitCommandRefusal(line: GitCommandLine): string | undefined {
  const { global, sub, rest } = line;
  if (global.some((a) => a === "--help" || a === "-p" || a === "--paginate")) return "`--help` and `--paginate` run man or a pager";
  if (sub === undefined) return undefined;
  if (sub.startsWith("credential")) return `\`git ${sub}\` reads or stores the user's credentials`;
  const why = REFUSED[sub];
  if (why !== undefined) return `\`git ${sub}\` ${why}`;
  const own = ownOptions(rest);
  if (own.includes("--help")) return "`--help` opens man or a browser; `-h` prints the usage instead";
  if (sub === "config") return configRefusal(own);
  if ((sub === "apply" || sub === "am") && own.some((a) => a === "--unsafe-paths"))
    return `\`git ${sub} --unsafe-paths\` writes files outside the working tree`;
  if (sub === "apply" || sub === "am") {
    const directory = optionValue(own, "--directory");
    if (directory !== undefined && escapes(directory))
      return `\`--directory=${directory}\` puts the patched files outside the working tree`;
  }
  if ((sub === "init" || sub === "clone") && own.some((a) => a === "--template" || a.startsWith("--template=")))
    return "`--template` copies hooks and config from a directory of the caller's choosing into the new repository";
  if (sub === "maintenance" && ["start", "stop", "register", "unregister"].includes(positionals(own)[0] ?? ""))
    return "`git maintenance start|register` changes the user's global config and the system's scheduler";
  if (sub === "var" && own.includes("-l")) return "`git var -l` prints the user's global and system config too";
  return undefined;
}

/**
 * Reads of the repository's own config only: the user's global and system files (and an include
 * the repository points at them) may hold tokens in URLs, headers and helpers. Writes are refused
 * by the allowlist's rules already.
 */
function configRefusal(own: readonly string[]): string | undefined {
  if (own.some((a) => ["--global", "--system", "--xdg"].includes(a)))
    return "`git config --global|--system` reads the user's own config, which may hold credentials";
  if (own.some((a) => a === "--includes")) return "`git config --includes` follows includes to files outside the repository";
  const scoped = own.some(
    (a) =>
      a === "--local" ||
      a === "--worktree" ||
      a === "--file" ||
      a.startsWith("--file=") ||
      a === "-f" ||
      a === "--blob" ||
      a.startsWith("--blob="),
  );
  if (!scoped) return "`git config` without --local reads the user's global and system config too, which may hold credentials; add --local";
  return undefined;
}

function ownOptions(rest: readonly string[]): readonly string[] {
  const end = rest.indexOf("--");
  return end === -1 ? rest : rest.slice(0, end);
}

function optionValue(args: readonly string[], name: string): string | undefined {
  for (const [i, arg] of args.entries()) {
    if (arg === name) return args[i + 1] ?? "";
    if (arg.startsWith(`${name}=`)) return arg.slice(name.length + 1);
  }
  return undefined;
}

function escapes(dir: string): boolean {
  return dir.startsWith("/") || dir.startsWith("~") || dir.split(/[/\\]/).includes("..");
}

/**
 * Every argument that could name a file (operands and option values): the runner resolves those
 * that exist through the jail, so a symlink in the workspace cannot lead git's reads outside.
 */
export function pathCandidates(args: readonly string[]): string[] {
  const out: string[] = [];
  for (const arg of args) {
    if (arg === "--" || arg === "") continue;
    if (!arg.startsWith("-")) out.push(arg);
    else if (arg.includes("=")) out.push(arg.slice(arg.indexOf("=") + 1));
    else if (!arg.startsWith("--") && arg.length > 2) out.push(arg.slice(2));
  }
  return out.filter((c) => c !== "" && !c.includes("\0"));
}
