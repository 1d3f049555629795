// How the allowlisted tools read their options, for the argument rules (src/security/commands/command-rules.ts).
// Conservative on purpose: a long option matches a refused one when it could be an abbreviation of
// it (git's parse-options and npm's nopt both expand unambiguous prefixes, so `--upload-p=cmd` is
// `--upload-pack=cmd`), `_` counts as `-` and case is ignored (npm's config keys), camelCase is
// kebab-case (yargs and cac read `--inspectBrk` as `--inspect-brk`), and a dotted name stands for
// its first part (cac reads `--api.port 0` as turning `--api` on).

/** The arguments a tool reads as its own options and subcommands: those before "--". */
export function ownArguments(args: readonly string[], stopAt: readonly string[] = ["--"]): readonly string[] {
  const end = args.findIndex((a) => stopAt.includes(a));
  return end === -1 ? args : args.slice(0, end);
}

/** The name of a long option ("--foo=bar" -> "foo"), normalized; undefined for anything else. */
function longName(arg: string): string | undefined {
  if (!arg.startsWith("--") || arg.length === 2) return undefined;
  return normalizeName(arg.slice(2).split("=")[0] ?? "");
}

function normalizeName(name: string): string {
  return (
    name
      .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
      .toLowerCase()
      .replace(/_/g, "-")
      .split(".")[0] ?? ""
  );
}

/** The refused long option `arg` could stand for, if any. */
export function refusedLong(arg: string, refused: readonly string[]): string | undefined {
  const name = longName(arg);
  if (name === undefined || name === "") return undefined;
  return refused.find((r) => r.startsWith(name));
}

/**
 * Whether `arg` sets the short option `letter`: "-c", "-cVALUE", or with `clusters` (argparse and
 * getopt) any "-xyz" group that contains it.
 */
export function setsShort(arg: string, letter: string, opts: { clusters?: boolean } = {}): boolean {
  if (!arg.startsWith("-") || arg.startsWith("--") || arg.length < 2) return false;
  if (arg[1] === letter) return true;
  if (opts.clusters !== true) return false;
  const group = /^-([A-Za-z]+)/.exec(arg)?.[1] ?? "";
  return group.includes(letter);
}

/** The value of option `names` in `args` ("--name=v", "--name v", "-n v", "-nv"), for each use. */
export function optionValues(args: readonly string[], names: { long: readonly string[]; short?: readonly string[] }): string[] {
  const { long, short = [] } = names;
  const values: string[] = [];
  for (const [i, arg] of args.entries()) {
    const name = longName(arg);
    if (name !== undefined && long.some((l) => l.startsWith(name) && name !== "")) {
      const eq = arg.indexOf("=");
      values.push(eq === -1 ? (args[i + 1] ?? "") : arg.slice(eq + 1));
    } else if (short.some((s) => arg === `-${s}`)) values.push(args[i + 1] ?? "");
    else if (short.some((s) => arg.startsWith(`-${s}`) && !arg.startsWith("--"))) values.push(arg.slice(2));
  }
  return values;
}

/** Positional arguments (not options), in order; `valueOptions` take the next argument as their value. */
export function positionals(args: readonly string[], valueOptions: readonly string[] = []): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? "";
    if (arg.startsWith("-")) {
      if (valueOptions.includes(arg)) i++;
      continue;
    }
    out.push(arg);
  }
  return out;
}
