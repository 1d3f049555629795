// The arguments a tool will act on, expanded the way the tool expands them, so the rules judge what
// will run and not its spelling (src/security/commands/command-policy.ts, check 4):
//   - cargo: a subcommand that is not built in is looked up in the [alias] tables of the
//     .cargo/config.toml (or .cargo/config) files from the command's directory up to its workspace
//     folder, nearest first, and replaced by its expansion (recursively, as cargo does). Files
//     above the workspace and in CARGO_HOME are the user's own, not read here: an alias defined
//     only there stays unknown and is refused as one.
//   - tsc: `@file` response files are replaced by the arguments they hold (TypeScript's own
//     reading: whitespace-separated, double quotes group), recursively.
// Files are read through the workspace jail (`readText`); one that cannot be read is left as it is
// written, for the rules and the path rule to judge. The command then runs with the expanded
// arguments, so what was judged is what runs, whatever the files say a moment later.
import { dirname, isAbsolute, isInside, join } from "../../lib/paths/posix-path.ts";
import type { ArgumentPlace } from "./argument-paths.ts";
import { CARGO_BUILTINS, cargoSubcommandAt } from "./rules/cargo-rules.ts";

export interface ExpandDeps {
  /** A workspace file's text, or undefined when it does not exist or cannot be read. */
  readText(path: string): Promise<string | undefined>;
}

const MAX_DEPTH = 8;

export async function expandArguments(
  line: { command: string; args: readonly string[]; place: ArgumentPlace },
  deps: ExpandDeps,
): Promise<readonly string[]> {
  if (line.command === "cargo") return expandCargoAliases(line.args, { place: line.place, deps });
  if (line.command === "tsc") return expandResponseFiles(line.args, { cwd: line.place.cwd, deps, depth: 0 });
  return line.args;
}

async function expandCargoAliases(args: readonly string[], ctx: { place: ArgumentPlace; deps: ExpandDeps }): Promise<readonly string[]> {
  let current = args;
  const seen = new Set<string>();
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    const at = cargoSubcommandAt(current);
    if (at === undefined) return current;
    // Cargo's order: a built-in command wins; then a user alias, which may redefine a built-in
    // alias (`b`); then the built-in alias (the rules resolve that one); then cargo-<name>.
    if (CARGO_BUILTINS.has(at.word) || seen.has(at.word)) return current;
    seen.add(at.word);
    const expansion = await projectAlias(at.word, ctx);
    if (expansion === undefined) return current;
    current = [...current.slice(0, at.index), ...expansion, ...current.slice(at.index + 1)];
  }
  return current;
}

/** `name` in the nearest project config that defines it, as an argv. */
async function projectAlias(name: string, ctx: { place: ArgumentPlace; deps: ExpandDeps }): Promise<string[] | undefined> {
  const folder = ctx.place.folders.find((f) => isInside(ctx.place.cwd, f));
  if (folder === undefined) return undefined;
  for (let dir = ctx.place.cwd; ; dir = dirname(dir)) {
    for (const file of ["config.toml", "config"]) {
      const text = await ctx.deps.readText(join(dir, ".cargo", file));
      const alias = text === undefined ? undefined : tomlAliases(text).get(name);
      if (alias !== undefined) return alias;
    }
    if (dir === folder || !isInside(dirname(dir), folder)) return undefined;
  }
}

/**
 * The [alias] entries of a cargo config: `name = "a b"` (split on whitespace, as cargo does) or
 * `name = ["a", 'b']` on one line, in an [alias] table or as `alias.name = ...` at the top.
 * Anything else is not read, so an alias written another way stays unknown (and refused).
 */
function tomlAliases(text: string): Map<string, string[]> {
  const aliases = new Map<string, string[]>();
  let table = "";
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    const header = /^\[([^\]]+)\]$/.exec(line);
    if (header !== null) {
      table = (header[1] ?? "").trim();
      continue;
    }
    const entry = /^([A-Za-z0-9_.-]+|"[^"]+")\s*=\s*(.+)$/.exec(line);
    if (entry === null) continue;
    const key = (entry[1] ?? "").replace(/^"|"$/g, "");
    const name = table === "alias" ? key : table === "" && key.startsWith("alias.") ? key.slice(6) : undefined;
    const value = tomlValue((entry[2] ?? "").replace(/\s+#.*$/, ""));
    if (name !== undefined && value !== undefined) aliases.set(name, value);
  }
  return aliases;
}

function tomlValue(text: string): string[] | undefined {
  const single = /^"((?:[^"\\]|\\.)*)"$|^'([^']*)'$/.exec(text);
  if (single !== null) return (single[1] ?? single[2] ?? "").split(/\s+/).filter((w) => w !== "");
  if (!text.startsWith("[") || !text.endsWith("]")) return undefined;
  const items = [...text.slice(1, -1).matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'/g)].map((m) => m[1] ?? m[2] ?? "");
  return items;
}

async function expandResponseFiles(
  args: readonly string[],
  ctx: { cwd: string; deps: ExpandDeps; depth: number },
): Promise<readonly string[]> {
  if (ctx.depth >= MAX_DEPTH || !args.some((a) => a.startsWith("@"))) return args;
  const out: string[] = [];
  for (const arg of args) {
    const file = arg.slice(1);
    const text = arg.startsWith("@") && file !== "" ? await ctx.deps.readText(isAbsolute(file) ? file : join(ctx.cwd, file)) : undefined;
    if (text === undefined) out.push(arg);
    else out.push(...(await expandResponseFiles(responseFileArgs(text), { ...ctx, depth: ctx.depth + 1 })));
  }
  return out;
}

/** TypeScript's parseResponseFile: whitespace separates, a double-quoted run is one argument. */
function responseFileArgs(text: string): string[] {
  const args: string[] = [];
  for (const m of text.matchAll(/"([^"]*)"?|[^\s"]+/g)) args.push(m[1] ?? m[0]);
  return args;
}
