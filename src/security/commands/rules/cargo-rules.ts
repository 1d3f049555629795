// cargo's rules (src/security/commands/rules/tool-rules.ts). cargo reads its subcommand after
// resolving its built-in aliases (b, c, d, r, t, rm) and the project's [alias] table
// (src/security/commands/expand-arguments.ts expands those before these rules run); a name it does
// not know runs the external program cargo-<name> from PATH, which the bridge allows only for the
// plugins it knows (a user may allow another with --allow-command "cargo <name>"). Refused: --config
// and -Z (they set runners, linkers, wrappers), a toolchain given as a path (`+./dir` runs that
// directory's cargo), install and credential changes, and, for rustc, rustdoc and clippy, compiler
// arguments after "--" that name a program or a file of more arguments (`-C linker=`, `-C link-arg=`,
// `--runtool`, `@args`). Option values that are URLs (--index, --git) go to the SSRF rule.
import { ownArguments, positionals, refusedLong, setsShort } from "../option-match.ts";
import { type InPlaceRewrite, type NetworkTarget, type RuleVerdict, type ToolRules, refuse } from "./tool-rules.ts";
import { optionValueHosts } from "./url-host.ts";

/** cargo's built-in aliases (cargo's own table, src/cargo/cli.rs). */
const CARGO_BUILTIN_ALIASES: Readonly<Record<string, string>> = {
  b: "build",
  c: "check",
  d: "doc",
  r: "run",
  t: "test",
  rm: "remove",
};

/** `cargo --list`'s built-in commands; a project alias may not shadow them. */
export const CARGO_BUILTINS = new Set(
  (
    "add bench build check clean config doc fetch fix generate-lockfile git-checkout help info init install locate-project login " +
    "logout metadata new owner package pkgid publish read-manifest remove report run rustc rustdoc search test tree uninstall update " +
    "vendor verify-project version yank"
  ).split(" "),
);

/** External subcommands (cargo-<name> programs) that run nothing the arguments name. */
const KNOWN_PLUGINS = new Set(
  (
    "clippy fmt miri nextest llvm-cov audit deny outdated udeps machete tarpaulin semver-checks hack expand bloat msrv sort " +
    "modules geiger about upgrade set-version"
  ).split(" "),
);

const VALUE_OPTIONS = [
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
  "--config",
  "-Z",
];

/** rustc's -C keys that name a program or a plugin the linker loads. */
const RUSTC_PROGRAM_KEYS = ["linker", "link-arg", "link-args", "linker-plugin-lto", "dlltool", "ar"];
const RUSTDOC_REFUSED = ["runtool", "runtool-arg", "test-runtool", "test-runtool-arg", "test-builder", "test-builder-wrapper"];
/** Subcommands that hand what follows "--" to the compiler. */
const COMPILER_SUBCOMMANDS = new Set(["rustc", "rustdoc", "clippy"]);

/** The subcommand cargo runs for `word` after its built-in aliases. */
function cargoSubcommand(word: string): string {
  return CARGO_BUILTIN_ALIASES[word] ?? word;
}

/** The subcommand word and where it is ("+toolchain" and global options skipped). */
export function cargoSubcommandAt(args: readonly string[]): { word: string; index: number } | undefined {
  const own = ownArguments(args);
  const [word] = positionals(own, VALUE_OPTIONS).filter((p, i) => !(i === 0 && p.startsWith("+")));
  return word === undefined ? undefined : { word, index: own.indexOf(word) };
}

const verdict = (args: readonly string[]): RuleVerdict | undefined => {
  const own = ownArguments(args);
  const toolchain = own[0]?.startsWith("+") === true ? own[0] : undefined;
  if (toolchain !== undefined && /[/\\~]|^\+\./.test(toolchain))
    return refuse(`\`${toolchain.slice(0, 80)}\` names a toolchain by its path: rustup runs that directory's cargo`);
  for (const arg of own) {
    if (refusedLong(arg, ["config"]) !== undefined)
      return refuse("`cargo --config` can set a runner, linker or rustc wrapper: a program to run");
    if (setsShort(arg, "Z")) return refuse("cargo's `-Z` unstable flags can change which programs cargo runs");
  }
  const at = cargoSubcommandAt(args);
  if (at === undefined) return undefined;
  const sub = cargoSubcommand(at.word);
  if (sub === "install") return refuse("`cargo install` builds and installs a program onto PATH, outside the workspace", "cargo install");
  if (sub === "login" || sub === "logout") return refuse(`\`cargo ${sub}\` changes the stored registry credentials`);
  if (!CARGO_BUILTINS.has(sub) && !KNOWN_PLUGINS.has(sub))
    return refuse(
      `\`cargo ${sub}\` is neither a built-in command, a known plugin nor an alias of this project: cargo would run the program cargo-${sub}`,
      `cargo ${sub}`,
    );
  if ((sub === "doc" || sub === "rustdoc") && own.some((a) => a === "--open")) return refuse(`\`cargo ${sub} --open\` opens a browser`);
  const dashes = args.indexOf("--");
  if (COMPILER_SUBCOMMANDS.has(sub) && dashes !== -1) return compilerArgs(args.slice(dashes + 1), sub);
  return undefined;
};

/** Arguments cargo hands to rustc, rustdoc or clippy-driver. */
function compilerArgs(extra: readonly string[], sub: string): RuleVerdict | undefined {
  for (const [i, arg] of extra.entries()) {
    if (arg.startsWith("@")) return refuse(`\`${arg.slice(0, 80)}\` makes ${sub} read more arguments from a file`);
    if (setsShort(arg, "Z")) return refuse(`\`${arg.slice(0, 80)}\`: unstable compiler flags can load plugins and programs`);
    const codegen = codegenSetting(arg, extra[i + 1]);
    const key = codegen?.split("=")[0]?.trim().toLowerCase().replace(/_/g, "-");
    if (key !== undefined && RUSTC_PROGRAM_KEYS.includes(key))
      return refuse(`\`-C ${codegen?.slice(0, 80)}\` names a program (or a plugin) for the compiler's linker step to run`);
    const hit = refusedLong(arg, RUSTDOC_REFUSED);
    if (hit !== undefined && sub !== "rustc") return refuse(`rustdoc's \`--${hit}\` names a program to run the doctests with`);
  }
  return undefined;
}

/** The "key=value" of a -C/--codegen argument (attached, after "=", or the next argument). */
function codegenSetting(arg: string, next: string | undefined): string | undefined {
  if (arg === "-C" || arg === "--codegen") return next;
  if (arg.startsWith("--codegen=")) return arg.slice("--codegen=".length);
  if (arg.startsWith("-C") && !arg.startsWith("--")) return arg.slice(2);
  return undefined;
}

const targets = (args: readonly string[]): NetworkTarget[] => optionValueHosts(args);

/** `cargo fmt`, `cargo fix` and `cargo clippy --fix` rewrite the crates' sources, wherever the manifests lead. */
const rewrites = (args: readonly string[]): InPlaceRewrite | undefined => {
  const at = cargoSubcommandAt(args);
  const sub = at === undefined ? undefined : cargoSubcommand(at.word);
  const fixing = sub === "fmt" || sub === "fix" || (sub === "clippy" && ownArguments(args).includes("--fix"));
  return fixing ? { scope: "folder", skips: [".git", "target"] } : undefined;
};

export const cargoRules: ToolRules = { verdict, targets, rewrites };
