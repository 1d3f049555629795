// git's rules (src/security/commands/rules/tool-rules.ts). git reads its global options with exact
// names and its subcommands' options with parse-options, which takes unambiguous prefixes. Refused:
// configuration set on the command line (`-c alias.x=!sh`, `--config-env`), options and
// subcommands that name or start a program (upload-pack, --exec, difftool, bisect run, a remote
// helper `x::addr`, hook run, a template directory of hooks), and writes to configuration. The
// repository argument of clone, fetch, pull, push, ls-remote, remote add/set-url, submodule add
// and archive --remote is a network target for the SSRF rule. What the repository's own config
// makes git run is for the git runner that neutralises it, not for these rules.
import { ownArguments, positionals, refusedLong, setsShort } from "../option-match.ts";
import { type NetworkTarget, type RuleVerdict, type ToolRules, refuse } from "./tool-rules.ts";
import { scpHost, urlHost } from "./url-host.ts";

const GIT_VALUE_OPTIONS = [
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
const GIT_REFUSED_LONG = ["config-env", "exec-path", "upload-pack", "receive-pack", "exec", "extcmd", "open-files-in-pager"];
const GIT_REFUSED_SUBCOMMANDS: Readonly<Record<string, string>> = {
  difftool: "runs an external diff program",
  mergetool: "runs an external merge program",
  "filter-branch": "runs shell filters given in its arguments",
  "send-email": "runs a sendmail command and sends mail",
  instaweb: "starts a web server",
  daemon: "starts a server",
  shell: "is a restricted shell",
  "upload-pack": "is a server-side program",
  "receive-pack": "is a server-side program",
  "upload-archive": "is a server-side program",
  "http-backend": "is a server-side program",
  cvsserver: "is a server-side program",
  "fsmonitor--daemon": "starts a daemon",
  "web--browse": "opens a browser",
  "imap-send": "runs the tunnel command configured for it",
};
const GIT_CONFIG_READS = ["--get", "--get-all", "--get-regexp", "--get-urlmatch", "--list", "-l", "--get-color", "--get-colorbool"];
const GIT_CONFIG_WRITES = ["--add", "--unset", "--unset-all", "--replace-all", "--rename-section", "--remove-section", "--edit", "-e"];
/** Subcommands whose first positional is a repository git connects to. */
const REMOTE_FIRST = new Set(["clone", "fetch", "pull", "push", "ls-remote", "fetch-pack", "send-pack"]);

function split(args: readonly string[]) {
  const own = ownArguments(args);
  const [sub, ...rest] = positionals(own, GIT_VALUE_OPTIONS);
  const subAt = sub === undefined ? own.length : own.indexOf(sub);
  return { own, sub, rest, global: own.slice(0, subAt), after: own.slice(subAt + 1) };
}

const verdict = (args: readonly string[]): RuleVerdict | undefined => {
  const { own, sub, rest, global, after } = split(args);
  // After the subcommand, -c is mostly harmless (log -c: combined diff); clone's -c sets config.
  const setsConfig =
    global.includes("-c") || (sub === "clone" && after.some((a) => setsShort(a, "c") || refusedLong(a, ["config"]) !== undefined));
  if (setsConfig) return refuse("`-c` sets git configuration, which names programs git runs (core.pager, core.fsmonitor, alias.x=!cmd)");
  for (const arg of own) {
    const hit = refusedLong(arg, GIT_REFUSED_LONG);
    if (hit !== undefined) return refuse(`\`--${hit}\` names a program for git to run`);
  }
  // transport::address runs git-remote-<transport> (ext:: runs a shell command outright).
  const helper = args.find((a) => /^[A-Za-z][\w+.-]*::/.test(a));
  if (helper !== undefined) return refuse(`\`${helper.slice(0, 80)}\` names a remote helper program for git to run`);
  if (sub === undefined) return undefined;
  return subcommandVerdict(sub, { rest, after });
};

function subcommandVerdict(sub: string, parts: { rest: readonly string[]; after: readonly string[] }): RuleVerdict | undefined {
  const { rest, after } = parts;
  const whySub = GIT_REFUSED_SUBCOMMANDS[sub];
  if (whySub !== undefined) return refuse(`\`git ${sub}\` ${whySub}`);
  if (sub.startsWith("credential")) return refuse(`\`git ${sub}\` reads and writes stored credentials`);
  if (sub.startsWith("remote-")) return refuse(`\`git ${sub}\` is a remote helper program`);
  if ((sub === "clone" || sub === "init") && after.some((a) => refusedLong(a, ["template"]) !== undefined))
    return refuse(`\`git ${sub} --template\` copies hooks from a directory, which git then runs`);
  if (sub === "rebase" && after.some((a) => setsShort(a, "x"))) return refuse("`git rebase -x` runs a command after each commit");
  if ((sub === "clone" || sub === "ls-remote" || sub === "archive") && after.some((a) => setsShort(a, "u")))
    return refuse(`\`git ${sub} -u\` names the upload-pack program to run`);
  if (sub === "grep" && after.some((a) => setsShort(a, "O")))
    return refuse("`git grep -O` opens the files in a program named by the argument");
  if (sub === "bisect" && rest[0] === "run") return refuse("`git bisect run` runs a command at each step");
  if (sub === "submodule" && rest.includes("foreach")) return refuse("`git submodule foreach` runs a shell command in each submodule");
  if (sub === "hook") return refuse("`git hook run` runs a hook program");
  if (sub === "help" && after.some((a) => a === "-w" || refusedLong(a, ["web"]) !== undefined))
    return refuse("`git help --web` opens a browser");
  if (sub === "maintenance" && ["start", "stop", "register", "unregister"].includes(rest[0] ?? ""))
    return refuse(`\`git maintenance ${rest[0]}\` changes the user's scheduler and global configuration, outside the workspace`);
  if (sub === "config") return gitConfig(after, rest);
  return undefined;
}

/** Only reads: a written core.pager, core.fsmonitor or alias would run on a later git call. */
function gitConfig(after: readonly string[], rest: readonly string[]): RuleVerdict | undefined {
  const reads = after.some((a) => GIT_CONFIG_READS.includes(a)) || rest[0] === "get" || rest[0] === "list";
  const writes =
    after.some((a) => GIT_CONFIG_WRITES.includes(a)) ||
    ["set", "unset", "edit", "rename-section", "remove-section"].includes(rest[0] ?? "");
  if (reads && !writes) return undefined;
  return refuse("`git config` may only read here (--get, --list): written settings name programs later git calls run");
}

/** The repository arguments git connects to, as URLs or scp-like ssh remotes. */
function targets(args: readonly string[]): NetworkTarget[] {
  const { sub, rest, after } = split(args);
  const remotes: string[] = [];
  if (sub !== undefined && REMOTE_FIRST.has(sub) && rest[0] !== undefined) remotes.push(rest[0]);
  if (sub === "remote" && (rest[0] === "add" || rest[0] === "set-url")) remotes.push(...rest.slice(2));
  if (sub === "submodule" && rest[0] === "add" && rest[1] !== undefined) remotes.push(rest[1]);
  for (const [i, arg] of after.entries()) {
    if (sub !== "archive" || refusedLong(arg, ["remote"]) === undefined) continue;
    const eq = arg.indexOf("=");
    const value = eq === -1 ? after[i + 1] : arg.slice(eq + 1);
    if (value !== undefined) remotes.push(value);
  }
  const found: NetworkTarget[] = [];
  for (const arg of remotes) {
    const host = urlHost(arg) ?? scpHost(arg);
    if (host !== undefined) found.push({ arg, host });
  }
  return found;
}

export const gitRules: ToolRules = { verdict, targets };
