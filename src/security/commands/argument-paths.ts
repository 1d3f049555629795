// The path rule of runCommand (src/security/commands/command-policy.ts): an argument that names a
// place on disk must name one inside the workspace, so `--prefix /tmp/x`, `--output=../../etc/x`,
// `-C/`, `file:///home/...`, `@/tmp/args`, `-replace=x=../y` or a JSON option value holding
// "/etc/x" cannot point an allowlisted tool at files elsewhere. Two steps:
//   - lexical (argumentOutside): every value that reads as a path (absolute, "~", or climbing with
//     ".."), including the parts of `a=b` and `a,b` values and the strings of a JSON value;
//   - through the disk (argumentThroughLink, src/security/commands/command-reach.ts runs it): every
//     value that could be a relative path is walked component by component with the kernel's rules,
//     so a symlink inside the workspace that leads outside (one a checkout or a patch created) is
//     caught before the tool writes through it.
import { isAbsolute, isInside, join, normalize } from "../../lib/paths/posix-path.ts";

export interface ArgumentPlace {
  /** Absolute, real directory the command runs in. */
  cwd: string;
  /** Absolute, real workspace folders; the root first. */
  folders: readonly string[];
}

/** The first argument (or extra path a tool's rule found) that leads outside the workspace. */
export function argumentOutside(
  args: readonly string[],
  place: ArgumentPlace,
  opts: { extraPaths?: readonly string[] } = {},
): { arg: string; path: string } | undefined {
  const candidates: [string, string][] = [
    ...args.flatMap((arg) => pathCandidates(arg).map((v): [string, string] => [arg, v])),
    ...(opts.extraPaths ?? []).map((p): [string, string] => [p, stripPrefixes(p)]),
  ];
  for (const [arg, value] of candidates) {
    if (!looksLikePath(value)) continue;
    if (value.startsWith("~")) return { arg, path: value };
    const path = isAbsolute(value) ? normalize(value) : join(place.cwd, value);
    if (!place.folders.some((folder) => isInside(path, folder))) return { arg, path };
  }
  return undefined;
}

/**
 * Every value in one argument that could be a path: the argument, an option's value, its parts
 * around "=" and ",", the strings of a JSON value, minus "@" or "file:". Not filtered: the walk
 * through the disk looks at relative names too.
 */
export function pathCandidates(arg: string): string[] {
  const values: string[] = [];
  if (!arg.startsWith("-")) values.push(arg);
  else {
    const eq = arg.indexOf("=");
    if (eq !== -1) values.push(arg.slice(eq + 1));
    // An attached short-option value: -C/tmp, -o../x.
    if (!arg.startsWith("--") && arg.length > 2) values.push(arg.slice(2));
  }
  const parts = values.flatMap((v) => [v, ...jsonStrings(v), ...(v.includes("=") || v.includes(",") ? v.split(/[=,]/) : [])]);
  return [...new Set(parts.map(stripPrefixes).filter((v) => v !== "" && !v.includes("://")))];
}

function jsonStrings(value: string): string[] {
  const t = value.trim();
  if (!(t.startsWith("{") || t.startsWith("["))) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(t);
  } catch {
    return [];
  }
  const out: string[] = [];
  const visit = (v: unknown): void => {
    if (typeof v === "string") out.push(v);
    else if (Array.isArray(v)) for (const x of v) visit(x);
    else if (v !== null && typeof v === "object")
      for (const [k, x] of Object.entries(v)) {
        out.push(k);
        visit(x);
      }
  };
  visit(parsed);
  return out;
}

function stripPrefixes(value: string): string {
  let out = value.startsWith("@") ? value.slice(1) : value;
  if (/^file:/i.test(out)) out = out.replace(/^file:(\/\/(localhost)?)?/i, "");
  return out;
}

function looksLikePath(value: string): boolean {
  return (
    value.startsWith("/") ||
    value.startsWith("~") ||
    value === ".." ||
    value.startsWith("../") ||
    value.includes("/../") ||
    value.endsWith("/..")
  );
}
