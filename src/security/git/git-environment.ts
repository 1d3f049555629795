// What every git the bridge runs gets, whatever runs it (a git tool, a service, runCommand's git,
// doctor): the environment git needs and nothing else, fixed options before the subcommand, and
// (per repository, repo-config-guard.ts) overrides that take the repository's program-running
// config away. Three promises: git never waits for a person (the bridge has no terminal, and a
// prompt would hang the call until its timeout); nothing the repository names runs; and if
// something did, it would find none of the user's secrets in its environment.
import { childEnvironment } from "../commands/child-env.ts";

/** Set on every run, over whatever the user's environment says. */
const FIXED_ENV: Readonly<Record<string, string>> = {
  // No username/password prompt on a terminal; a credential helper still answers.
  GIT_TERMINAL_PROMPT: "0",
  // Empty, not unset: git then skips core.askPass and SSH_ASKPASS too (prompt.c checks `*askpass`),
  // so neither an editor's GUI askpass (VS Code sets one) nor the repository's can wait for a click.
  GIT_ASKPASS: "",
  SSH_ASKPASS: "",
  // Git Credential Manager would open a browser window and wait.
  GCM_INTERACTIVE: "never",
  // Commit, merge and rebase never open an editor; messages come from the tool. The environment
  // wins over core.editor and sequence.editor, so the repository's editor never runs either.
  GIT_EDITOR: "true",
  GIT_SEQUENCE_EDITOR: "true",
  GIT_MERGE_AUTOEDIT: "no",
  // Wins over core.pager and pager.<command>.
  GIT_PAGER: "cat",
  PAGER: "cat",
  // status must not take index.lock to refresh stat data: a user's git running at the same time
  // would fail on the lock.
  GIT_OPTIONAL_LOCKS: "0",
  // English messages: the bridge recognises conflicts and rejections by git's wording.
  LC_ALL: "C",
};

/**
 * What git, ssh, gpg and a credential helper of the user's own config need: where the user's
 * config and keys are, how to reach the network, the locale. Everything else (the user's tokens
 * among it) stays out.
 */
const NEEDED = new Set([
  "PATH",
  "HOME",
  "USER",
  "LOGNAME",
  "SHELL",
  "TMPDIR",
  "TZ",
  "LANG",
  "LANGUAGE",
  "EMAIL",
  "XDG_CONFIG_HOME",
  "XDG_RUNTIME_DIR",
  "SSH_AUTH_SOCK",
  "SSH_AGENT_PID",
  "GNUPGHOME",
  "GPG_AGENT_INFO",
  "http_proxy",
  "https_proxy",
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "all_proxy",
  "ALL_PROXY",
  "no_proxy",
  "NO_PROXY",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "CURL_CA_BUNDLE",
  // Windows: where the profile and the system are.
  "SYSTEMROOT",
  "USERPROFILE",
  "APPDATA",
  "LOCALAPPDATA",
  "HOMEDRIVE",
  "HOMEPATH",
  "PATHEXT",
]);

/**
 * The user's GIT_* variables are theirs (GIT_CONFIG_GLOBAL, GIT_SSH_COMMAND, GIT_TRACE), except
 * those that would point git at another repository than the workspace's.
 */
const REPOSITORY_LOCATION = new Set([
  "GIT_DIR",
  "GIT_WORK_TREE",
  "GIT_INDEX_FILE",
  "GIT_OBJECT_DIRECTORY",
  "GIT_ALTERNATE_OBJECT_DIRECTORIES",
  "GIT_COMMON_DIR",
  "GIT_NAMESPACE",
  "GIT_PREFIX",
  "GIT_INTERNAL_SUPER_PREFIX",
]);

function needed(name: string): boolean {
  if (NEEDED.has(name) || name.startsWith("LC_")) return true;
  return name.startsWith("GIT_") && !REPOSITORY_LOCATION.has(name);
}

/**
 * The environment of a git run: the needed names of the bridge's environment, without anything
 * that looks like a secret (src/security/commands/child-env.ts) unless --pass-env names it, plus
 * the fixed values above.
 */
export function gitEnvironment(
  base: Readonly<Record<string, string | undefined>>,
  opts: { passEnv?: readonly string[] } = {},
): Record<string, string> {
  const scrubbed = childEnvironment(base, undefined, { dropSecrets: true, passEnv: opts.passEnv ?? [] });
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(scrubbed)) if (needed(name) || opts.passEnv?.includes(name) === true) env[name] = value;
  // The ssh agent's socket names no secret of its own, and fetch and push over ssh need it; the
  // secret rule drops it by its word AUTH for every other program.
  const agent = base.SSH_AUTH_SOCK;
  if (agent !== undefined) env.SSH_AUTH_SOCK = agent;
  return { ...env, ...FIXED_ENV };
}

/**
 * Options before the subcommand, on every run. Command-line config is read last, so each wins over
 * the repository's value; what is listed here needs no look at the repository first.
 */
export const FIXED_GIT_ARGS: readonly string[] = [
  "--no-pager",
  ...[
    // The repository's config may name a program here, and the builtin daemon would outlive the call.
    "core.fsmonitor=false",
    "core.quotePath=false",
    "color.ui=false",
    // Run when fetch or push lists an alternate's refs; `true` prints none (alternates are an optimisation).
    "core.alternateRefsCommand=true",
    // ext:: and fd:: remote URLs run a command (a url.<base>.insteadOf in the repository could produce one).
    "protocol.ext.allow=never",
    "protocol.fd.allow=never",
    // A recursive pull or checkout runs `submodule.<name>.update = !command` from .git/config, and a
    // submodule's git reads the submodule's own config, which the overrides here were not made from.
    "submodule.recurse=false",
    "fetch.recurseSubmodules=false",
    "push.recurseSubmodules=no",
    // status, diff, commit and checkout otherwise run `git status` inside each submodule, whose
    // filters and fsmonitor come from the submodule's own config. Their commits are still compared.
    "diff.ignoreSubmodules=dirty",
    // GIT_EDITOR and GIT_SEQUENCE_EDITOR (FIXED_ENV) already win over these; the config is set too
    // so that a run whose environment lost them (a wrapper, a --pass-env of the user's) still opens
    // no editor the repository names: commit, merge, tag and rebase -i would run it as a shell command.
    "core.editor=true",
    "sequence.editor=true",
    // Would run the gpg program on every log and show.
    "log.showSignature=false",
    // An automatic gc may detach a daemon that outlives the call; the user's own git collects garbage.
    "gc.auto=0",
    "maintenance.auto=false",
  ].flatMap((setting) => ["-c", setting]),
];

/** Hooks off: a path with nothing in it (git finds no hook there and runs none). */
export const NO_HOOKS: readonly string[] = ["-c", "core.hooksPath=/dev/null"];

/**
 * `key=value` settings as git's environment config (GIT_CONFIG_COUNT, GIT_CONFIG_KEY_<n>,
 * GIT_CONFIG_VALUE_<n>), which git reads with `-c`'s precedence, after the user's own entries.
 */
export function configEnvironment(settings: readonly string[], base: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const own = Number(base.GIT_CONFIG_COUNT ?? "0");
  const start = Number.isInteger(own) && own > 0 ? own : 0;
  const env: Record<string, string> = { GIT_CONFIG_COUNT: String(start + settings.length) };
  settings.forEach((setting, i) => {
    const eq = setting.indexOf("=");
    env[`GIT_CONFIG_KEY_${start + i}`] = setting.slice(0, eq);
    env[`GIT_CONFIG_VALUE_${start + i}`] = setting.slice(eq + 1);
  });
  return env;
}

/** What a program that runs git itself gets too: no prompt, editor, pager or askpass of the repository's. */
export const GIT_CHILD_ENV: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(FIXED_ENV).filter(([name]) => name !== "LC_ALL" && name !== "PAGER"),
);

/** For a git run with no repository (doctor's `git --version`). */
export function bareGitRun(
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): { args: string[]; env: Record<string, string> } {
  return { args: [...FIXED_GIT_ARGS, ...NO_HOOKS, ...args], env: gitEnvironment(env) };
}
