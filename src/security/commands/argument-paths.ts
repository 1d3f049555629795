// The path rule of runCommand (src/security/commands/command-policy.ts): an argument that names a place on disk
// must name one inside the workspace, so `--prefix /tmp/x`, `--output=../../etc/x`, `-C/`,
// `file:///home/...` or `@/tmp/args` cannot point an allowlisted tool at files elsewhere. Lexical:
// the tool resolves symlinks itself, and links inside the workspace are the user's own.
import { isAbsolute, isInside, join, normalize } from "../../lib/paths/posix-path.ts";

export interface ArgumentPlace {
  /** Absolute, real directory the command runs in. */
  cwd: string;
  /** Absolute, real workspace folders; the root first. */
  folders: readonly string[];
}

/** The first argument that leads outside the workspace, with the path it leads to. */
export function argumentOutside(args: readonly string[], place: ArgumentPlace): { arg: string; path: string } | undefined {
  for (const arg of args) {
    for (const value of pathCandidates(arg)) {
      if (value.startsWith("~")) return { arg, path: value };
      const path = isAbsolute(value) ? normalize(value) : join(place.cwd, value);
      if (!place.folders.some((folder) => isInside(path, folder))) return { arg, path };
    }
  }
  return undefined;
}

/** What in one argument could be read as a path: the argument, an option's value, minus "@" or "file:". */
function pathCandidates(arg: string): string[] {
  const values: string[] = [];
  if (!arg.startsWith("-")) values.push(arg);
  else {
    const eq = arg.indexOf("=");
    if (eq !== -1) values.push(arg.slice(eq + 1));
    // An attached short-option value: -C/tmp, -o../x.
    if (!arg.startsWith("--") && arg.length > 2) values.push(arg.slice(2));
  }
  return values.map(stripPrefixes).filter(looksLikePath);
}

function stripPrefixes(value: string): string {
  let out = value.startsWith("@") ? value.slice(1) : value;
  if (/^file:/i.test(out)) out = out.replace(/^file:(\/\/(localhost)?)?/i, "");
  return out;
}

function looksLikePath(value: string): boolean {
  if (value.includes("://")) return false;
  return (
    value.startsWith("/") ||
    value.startsWith("~") ||
    value === ".." ||
    value.startsWith("../") ||
    value.includes("/../") ||
    value.endsWith("/..")
  );
}
