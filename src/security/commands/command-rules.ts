// What each allowlisted tool can be made to run through its own arguments, and the line drawn for
// it (src/security/commands/command-policy.ts has the rest of the policy). The line: a call may run the project's
// own code, as the tool is meant to (npm run/test of package.json scripts, cargo run/test/build,
// go run/test/generate of packages in the workspace, pytest/vitest/jest on its tests: code the user
// wrote, the same runTests runs); it may not name a second program, inline code or a shell, fetch
// and run a package by name, point the tool at configuration that names programs, or change what
// later calls run outside the workspace (global installs, user config, credentials). Runner
// subcommands that fetch and run code ("npm exec", "npx", "go run pkg@v", installs onto PATH) are
// the user's choice: --allow-command "npm exec" allows exactly that one.
import { optionValues, ownArguments, positionals, refusedLong, setsShort } from "./option-match.ts";

interface RuleVerdict {
  why: string;
  /** The runner subcommand (e.g. "npm exec") the user may allow with --allow-command. */
  runner?: string;
}

type ArgumentRule = (args: readonly string[]) => RuleVerdict | undefined;

const refuse = (why: string, runner?: string): RuleVerdict => (runner === undefined ? { why } : { why, runner });

// git ----------------------------------------------------------------------------------------------

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
  "remote-ext": "runs a command as a remote",
  "remote-fd": "is a transport helper",
  credential: "reads and writes stored credentials",
  "credential-store": "reads and writes stored credentials",
  "credential-cache": "reads and writes stored credentials",
  "web--browse": "opens a browser",
  "http-backend": "is a server-side program",
};
const GIT_CONFIG_READS = ["--get", "--get-all", "--get-regexp", "--get-urlmatch", "--list", "-l", "--get-color", "--get-colorbool"];
const GIT_CONFIG_WRITES = ["--add", "--unset", "--unset-all", "--replace-all", "--rename-section", "--remove-section", "--edit", "-e"];

const git: ArgumentRule = (args) => {
  const own = ownArguments(args);
  const [sub, ...rest] = positionals(own, GIT_VALUE_OPTIONS);
  const subAt = sub === undefined ? own.length : own.indexOf(sub);
  const global = own.slice(0, subAt);
  const after = own.slice(subAt + 1);
  // After the subcommand, -c is mostly harmless (log -c: combined diff); clone's -c sets config.
  const setsConfig =
    global.includes("-c") || (sub === "clone" && after.some((a) => setsShort(a, "c") || refusedLong(a, ["config"]) !== undefined));
  if (setsConfig) return refuse("`-c` sets git configuration, which names programs git runs (core.pager, core.fsmonitor, alias.x=!cmd)");
  for (const arg of own) {
    const hit = refusedLong(arg, GIT_REFUSED_LONG);
    if (hit !== undefined) return refuse(`\`--${hit}\` names a program for git to run`);
  }
  if (args.some((a) => /^(ext|fd)::/i.test(a))) return refuse("an ext:: or fd:: remote runs a command");
  if (sub === undefined) return undefined;
  const whySub = GIT_REFUSED_SUBCOMMANDS[sub];
  if (whySub !== undefined) return refuse(`\`git ${sub}\` ${whySub}`);
  if (sub === "rebase" && after.some((a) => setsShort(a, "x"))) return refuse("`git rebase -x` runs a command after each commit");
  if ((sub === "clone" || sub === "ls-remote" || sub === "archive") && after.some((a) => setsShort(a, "u")))
    return refuse(`\`git ${sub} -u\` names the upload-pack program to run`);
  if (sub === "grep" && after.some((a) => setsShort(a, "O")))
    return refuse("`git grep -O` opens the files in a program named by the argument");
  if (sub === "bisect" && rest[0] === "run") return refuse("`git bisect run` runs a command at each step");
  if (sub === "submodule" && rest.includes("foreach")) return refuse("`git submodule foreach` runs a shell command in each submodule");
  if (sub === "config") return gitConfig(after, rest);
  return undefined;
};

/** Only reads: a written core.pager, core.fsmonitor or alias would run on a later git call. */
function gitConfig(after: readonly string[], rest: readonly string[]): RuleVerdict | undefined {
  const reads = after.some((a) => GIT_CONFIG_READS.includes(a)) || rest[0] === "get" || rest[0] === "list";
  const writes =
    after.some((a) => GIT_CONFIG_WRITES.includes(a)) ||
    ["set", "unset", "edit", "rename-section", "remove-section"].includes(rest[0] ?? "");
  if (reads && !writes) return undefined;
  return refuse("`git config` may only read here (--get, --list): written settings name programs later git calls run");
}

// npm and npx -------------------------------------------------------------------------------------

/** npm config keys that name a program, a shell or a config file that could (nopt takes prefixes). */
const NPM_REFUSED_LONG = [
  "script-shell",
  "shell",
  "node-options",
  "editor",
  "browser",
  "viewer",
  "git",
  "node-gyp",
  "userconfig",
  "globalconfig",
  "init-module",
  "onload-script",
  "call",
  "global",
  "location",
];
const NPM_COMMANDS = new Set(
  (
    "access adduser audit bugs cache ci completion config dedupe deprecate diff dist-tag docs doctor edit exec explain explore find-dupes fund get help " +
    "help-search hook init install install-ci-test install-test link ll login logout ls org outdated owner pack ping pkg prefix profile prune publish " +
    "query rebuild repo restart root run run-script sbom search set shrinkwrap star stars start stop team test token undeprecate uninstall unpublish " +
    "unstar update version view whoami i in ins inst insta instal isnt isnta isntal isntall add un unlink remove rm r ln t tst up upgrade udpate c cit " +
    "clean-install clean-install-test ic it list la x rb rum urn s se find v info show author home issues verison create innit ddp dedupe"
  ).split(" "),
);
const NPM_REFUSED_SUBCOMMANDS: Readonly<Record<string, RuleVerdict>> = {
  exec: refuse("`npm exec` fetches and runs a package by name", "npm exec"),
  x: refuse("`npm x` fetches and runs a package by name", "npm exec"),
  explore: refuse("`npm explore` opens a shell"),
  edit: refuse("`npm edit` opens an editor"),
  link: refuse("`npm link` installs a global link outside the workspace"),
  ln: refuse("`npm ln` installs a global link outside the workspace"),
  set: refuse("`npm set` writes npm's configuration, which names programs later npm calls run"),
  adduser: refuse("`npm adduser` changes the stored registry credentials"),
  login: refuse("`npm login` changes the stored registry credentials"),
  logout: refuse("`npm logout` changes the stored registry credentials"),
  token: refuse("`npm token` manages registry credentials"),
  docs: refuse("`npm docs` opens a browser"),
  home: refuse("`npm home` opens a browser"),
  bugs: refuse("`npm bugs` opens a browser"),
  issues: refuse("`npm issues` opens a browser"),
  repo: refuse("`npm repo` opens a browser"),
};

function npmOptions(own: readonly string[]): RuleVerdict | undefined {
  for (const arg of own) {
    const hit = refusedLong(arg, NPM_REFUSED_LONG);
    if (hit !== undefined)
      return refuse(
        `npm's \`--${hit}\` ${hit === "global" || hit === "location" ? "installs outside the workspace, onto PATH" : "names a program, a shell or a config file for npm to use"}`,
      );
    if (setsShort(arg, "c", { clusters: true }) || setsShort(arg, "g", { clusters: true }))
      return refuse(
        `npm's \`${arg.slice(0, 2)}\` ${arg[1] === "g" ? "installs outside the workspace, onto PATH" : "runs a shell command line"}`,
      );
  }
  return undefined;
}

const npm: ArgumentRule = (args) => {
  const own = ownArguments(args);
  const options = npmOptions(own);
  if (options !== undefined) return options;
  // Flags that take a value cannot be told from those that do not, so every word before the first
  // known command is treated as a possible command.
  const words = positionals(own);
  for (const [i, word] of words.entries()) {
    const verdict = NPM_REFUSED_SUBCOMMANDS[word];
    if (verdict !== undefined) return verdict;
    if (!NPM_COMMANDS.has(word)) continue;
    const next = words[i + 1];
    if (["init", "create", "innit"].includes(word) && next !== undefined)
      return refuse(`\`npm ${word} ${next}\` fetches and runs an initializer package`, "npm init");
    if ((word === "config" || word === "c") && !["get", "list", "ls"].includes(next ?? "list"))
      return refuse("`npm config` may only read here: written settings name programs later npm calls run");
    return undefined;
  }
  return undefined;
};

/** npx is `npm exec`: allowed only by --allow-command npx, and even then never with a shell. */
const npx: ArgumentRule = (args) => npmOptions(ownArguments(args));

// cargo and go ------------------------------------------------------------------------------------

const cargo: ArgumentRule = (args) => {
  const own = ownArguments(args);
  for (const arg of own) {
    if (refusedLong(arg, ["config"]) !== undefined)
      return refuse("`cargo --config` can set a runner, linker or rustc wrapper: a program to run");
    if (setsShort(arg, "Z")) return refuse("cargo's `-Z` unstable flags can change which programs cargo runs");
  }
  const [sub] = positionals(own, [
    "--manifest-path",
    "-p",
    "--package",
    "--color",
    "--target",
    "--target-dir",
    "-j",
    "--jobs",
    "--features",
    "-F",
    "--profile",
    "--bin",
    "--example",
    "--test",
    "--bench",
  ]);
  if (sub === "install") return refuse("`cargo install` builds and installs a program onto PATH, outside the workspace", "cargo install");
  if (sub === "login" || sub === "logout") return refuse(`\`cargo ${sub}\` changes the stored registry credentials`);
  return undefined;
};

const GO_REFUSED = ["exec", "toolexec", "vettool"];

const go: ArgumentRule = (args) => {
  const own = ownArguments(args, ["--", "-args", "--args"]);
  for (const arg of own) {
    const name = /^--?([\w-]+)/.exec(arg)?.[1];
    if (name !== undefined && GO_REFUSED.includes(name)) return refuse(`\`go -${name}\` names a program for go to run`);
  }
  // -ldflags "-extld=cc" names the external linker; its value may be a separate argument.
  if (own.some((a) => /-extld|-extar/.test(a))) return refuse("`-extld`/`-extar` in linker flags name a program for go to run");
  const [sub, ...rest] = positionals(own, [
    "-C",
    "-o",
    "-run",
    "-bench",
    "-tags",
    "-ldflags",
    "-gcflags",
    "-p",
    "-mod",
    "-modfile",
    "-count",
    "-timeout",
    "-coverprofile",
    "-covermode",
    "-coverpkg",
    "-skip",
    "-json",
  ]);
  if (sub === "env" && own.some((a) => /^--?[wu]$/.test(a)))
    return refuse("`go env -w` writes go's configuration (GOFLAGS can name a program for later go calls)");
  if (sub === "run" && rest.some((p) => p.includes("@"))) return refuse("`go run pkg@version` fetches and runs a module by name", "go run");
  if (sub === "install") return refuse("`go install` builds and installs a program onto PATH, outside the workspace", "go install");
  if (sub === "bug") return refuse("`go bug` opens a browser");
  return undefined;
};

// test runners, checkers ---------------------------------------------------------------------------

const pytest: ArgumentRule = (args) => {
  for (const arg of ownArguments(args)) {
    if (setsShort(arg, "o", { clusters: true }) || refusedLong(arg, ["override-ini"]) !== undefined)
      return refuse("pytest's `-o` can set addopts or pythonpath, bringing in arguments and code from elsewhere");
  }
  return undefined;
};

const jest: ArgumentRule = (args) => {
  const own = ownArguments(args);
  if (optionValues(own, { long: ["config"], short: ["c"] }).some((v) => v.trim().startsWith("{")))
    return refuse("jest's inline JSON `--config` can name any module (transform, runner, setup) to run");
  return undefined;
};

const vitest: ArgumentRule = (args) => {
  for (const arg of ownArguments(args)) {
    const hit = refusedLong(arg, ["api", "ui", "inspect", "inspect-brk", "open"]);
    if (hit !== undefined) return refuse(`vitest's \`--${hit}\` starts a server or debugger that runs code on request`);
  }
  return undefined;
};

const eslint: ArgumentRule = (args) =>
  ownArguments(args).some((a) => refusedLong(a, ["inspect-config"]) !== undefined)
    ? refuse("eslint's `--inspect-config` starts a server and opens a browser")
    : undefined;

const biome: ArgumentRule = (args) => {
  const [sub] = positionals(ownArguments(args));
  return sub !== undefined && ["start", "stop", "lsp-proxy", "__run_server", "__print_socket"].includes(sub)
    ? refuse(`\`biome ${sub}\` starts or controls a background daemon`)
    : undefined;
};

/** Per allowlisted tool; a command added with --allow-command gets the path rule only. */
export const ARGUMENT_RULES: Readonly<Record<string, ArgumentRule>> = {
  git,
  npm,
  npx,
  cargo,
  go,
  pytest,
  jest,
  vitest,
  eslint,
  biome,
  tsc: () => undefined,
};

/** Subcommands a user may allow by name (--allow-command "npm exec"), and the command allowing npx. */
export const RUNNER_SUBCOMMANDS = ["npm exec", "npm init", "cargo install", "go install", "go run"];
