// npm's and npx's rules (src/security/commands/rules/tool-rules.ts). npm reads its command word
// as src/security/commands/rules/npm-commands.ts does (aliases and unambiguous prefixes: `npm exe`
// is `npm exec`), and package arguments as src/security/commands/rules/npm-specs.ts does. Refused:
// runner and shell subcommands, config that names a program or a config file, global installs,
// and installs from git, a URL or a path outside the workspace (npm fetches them and runs their
// scripts in the same call). Network options (--registry, --@scope:registry, --proxy) are checked
// as hosts by the SSRF rule.
import { refusedLong, setsShort } from "../option-match.ts";
import { npmCommand } from "./npm-commands.ts";
import { npmSpec } from "./npm-specs.ts";
import { type NetworkTarget, type RuleVerdict, type ToolRules, refuse } from "./tool-rules.ts";
import { optionValueHosts } from "./url-host.ts";

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

/** Commands refused whatever follows them (keyed by the command npm resolves the word to). */
const REFUSED_COMMANDS: Readonly<Record<string, RuleVerdict>> = {
  exec: refuse("`npm exec` fetches and runs a package by name", "npm exec"),
  explore: refuse("`npm explore` opens a shell"),
  edit: refuse("`npm edit` opens an editor"),
  link: refuse("`npm link` installs a global link outside the workspace"),
  set: refuse("`npm set` writes npm's configuration, which names programs later npm calls run"),
  adduser: refuse("`npm adduser` changes the stored registry credentials"),
  login: refuse("`npm login` changes the stored registry credentials"),
  logout: refuse("`npm logout` changes the stored registry credentials"),
  token: refuse("`npm token` manages registry credentials"),
  profile: refuse("`npm profile` changes the registry account and its credentials"),
  docs: refuse("`npm docs` opens a browser"),
  bugs: refuse("`npm bugs` opens a browser"),
  repo: refuse("`npm repo` opens a browser"),
};

/** Commands whose positional arguments are package specs npm fetches. */
const SPEC_COMMANDS = new Set([
  "install",
  "install-test",
  "update",
  "pack",
  "publish",
  "cache",
  "view",
  "outdated",
  "dist-tag",
  "deprecate",
  "undeprecate",
  "unpublish",
  "owner",
  "access",
]);

function npmOptions(own: readonly string[]): RuleVerdict | undefined {
  for (const arg of own) {
    const hit = refusedLong(arg, NPM_REFUSED_LONG);
    if (hit !== undefined)
      return refuse(
        `npm's \`--${hit}\` ${hit === "global" || hit === "location" ? "installs outside the workspace, onto PATH" : "names a program, a shell or a config file for npm to use"}`,
      );
    for (const [letter, why] of [
      ["c", "runs a shell command line"],
      ["g", "installs outside the workspace, onto PATH"],
      ["L", "sets where npm installs (--location global is outside the workspace)"],
    ] as const) {
      if (setsShort(arg, letter, { clusters: true })) return refuse(`npm's \`-${letter}\` ${why}`);
    }
  }
  return undefined;
}

/** The arguments npm reads (before "--"): after it, arguments go to a script. */
function ownArgs(args: readonly string[]): readonly string[] {
  const end = args.indexOf("--");
  return end === -1 ? args : args.slice(0, end);
}

interface CommandWord {
  index: number;
  command: string;
  /** The argument before it is an option that may take it as its value, so npm may not read it as the command. */
  maybeValue: boolean;
}

/**
 * The words npm may read as its command, in order, up to the first it certainly reads as one. Which
 * flags take a value is npm's own table; a word after a bare `--flag` or `-f` is read both ways.
 */
function commandWords(own: readonly string[]): CommandWord[] {
  const found: CommandWord[] = [];
  for (const [index, arg] of own.entries()) {
    if (arg.startsWith("-")) continue;
    const prev = own[index - 1];
    const maybeValue = prev?.startsWith("-") === true && !prev.includes("=") && prev !== "-";
    const command = npmCommand(arg);
    if (command === undefined) continue;
    found.push({ index, command, maybeValue });
    if (!maybeValue) break;
  }
  return found;
}

function commandVerdict(own: readonly string[], word: CommandWord): RuleVerdict | undefined {
  const refused = REFUSED_COMMANDS[word.command];
  if (refused !== undefined) return refused;
  const rest = own.slice(word.index + 1).filter((a) => !a.startsWith("-"));
  const next = rest[0];
  if (word.command === "init" && next !== undefined)
    return refuse(`\`npm ${own[word.index]} ${next}\` fetches and runs an initializer package`, "npm init");
  if (word.command === "config" && !["get", "list", "ls"].includes(next ?? "list"))
    return refuse("`npm config` may only read here: written settings name programs later npm calls run");
  if (SPEC_COMMANDS.has(word.command)) {
    for (const arg of rest) {
      const v = specVerdict(arg);
      if (v !== undefined) return v;
    }
  }
  return undefined;
}

/** Specs npm fetches from option values: `npm diff --diff=<spec>`. */
function optionSpecs(own: readonly string[]): string[] {
  return own.flatMap((arg, i) => {
    if (refusedLong(arg, ["diff"]) !== "diff" || arg.length < 4) return [];
    const eq = arg.indexOf("=");
    const value = eq === -1 ? own[i + 1] : arg.slice(eq + 1);
    return value === undefined ? [] : [value];
  });
}

function specVerdict(arg: string): RuleVerdict | undefined {
  const spec = npmSpec(arg);
  if (spec.kind === "git")
    return refuse(`\`${arg.slice(0, 200)}\` is a git dependency: npm clones it and runs its prepare and install scripts`);
  if (spec.kind === "remote")
    return refuse(`\`${arg.slice(0, 200)}\` is a package from a URL: npm fetches it and runs its install scripts`);
  return undefined;
}

const verdict = (args: readonly string[]): RuleVerdict | undefined => {
  const own = ownArgs(args);
  const options = npmOptions(own);
  if (options !== undefined) return options;
  for (const spec of optionSpecs(own)) {
    const v = specVerdict(spec);
    if (v !== undefined) return v;
  }
  for (const word of commandWords(own)) {
    const v = commandVerdict(own, word);
    if (v !== undefined) return v;
  }
  return undefined;
};

/** Local package specs (`file:../x`, `name@../x`, `./x.tgz`) of the commands that fetch specs. */
function specPaths(args: readonly string[]): string[] {
  const own = ownArgs(args);
  const paths: string[] = optionSpecs(own).flatMap((arg) => {
    const spec = npmSpec(arg);
    return spec.kind === "path" ? [spec.path] : [];
  });
  for (const word of commandWords(own)) {
    if (!SPEC_COMMANDS.has(word.command) && word.command !== "exec") continue;
    for (const arg of own.slice(word.index + 1)) {
      if (arg.startsWith("-")) continue;
      const spec = npmSpec(arg);
      if (spec.kind === "path") paths.push(spec.path);
    }
  }
  return paths;
}

/** --registry, --@scope:registry, --proxy, --https-proxy (and nopt's prefixes of them): every option value that is a URL. */
const optionTargets = (args: readonly string[]): NetworkTarget[] => optionValueHosts(args);

export const npmRules: ToolRules = { verdict, paths: specPaths, targets: optionTargets };

/** npx is `npm exec`: allowed only by --allow-command npx, and even then never with a shell. */
export const npxRules: ToolRules = {
  verdict: (args) => npmOptions(ownArgs(args)),
  paths: (args) =>
    ownArgs(args)
      .filter((a) => !a.startsWith("-"))
      .map(npmSpec)
      .flatMap((s) => (s.kind === "path" ? [s.path] : [])),
  targets: optionTargets,
};
