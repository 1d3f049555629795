// Formatters and fixers rewrite the files they visit in place, and a rewrite goes through a
// symbolic link to wherever it points: `biome format --write` and `go fmt` rewrote a file outside
// the workspace through a link inside it, as `eslint --fix` did in an attack run (cargo fmt writes
// back to the path it read too). Before such a run (src/security/commands/rules/*: `rewrites`),
// the trees the tool will walk are listed and the run is refused when any symlink in them leads
// outside the workspace. A link to a place inside is followed (its target's tree is walked too,
// once); a dangling one is left alone, since these tools rewrite files that exist. A tree too large
// to list within the bound is refused, with what to do, rather than judged on part of it. What
// changes between this check and the run (a link another program creates meanwhile) is not seen.
import type { Fs } from "../../ports/fs.ts";
import { isAbsolute, isInside, join, normalize } from "../../lib/paths/posix-path.ts";
import { type ArgumentPlace, pathCandidates } from "./argument-paths.ts";
import type { Refusal } from "./command-policy.ts";
import type { InPlaceRewrite } from "./rules/tool-rules.ts";

/** Entries listed at most per command: far more than a project's own sources, far fewer than a home directory. */
export const MAX_REWRITE_ENTRIES = 200_000;

export interface RewriteDeps {
  fs: Pick<Fs, "lstat" | "realpath" | "readdir">;
  /** Lower bound for tests; MAX_REWRITE_ENTRIES by default. */
  maxEntries?: number;
}

/** Why the in-place rewrite `args` ask for must not run, or undefined. */
export async function checkRewriteLinks(
  line: { command: string; args: readonly string[]; rewrite: InPlaceRewrite; place: ArgumentPlace },
  deps: RewriteDeps,
): Promise<Refusal | undefined> {
  const { place, rewrite } = line;
  const inside = (p: string) => place.folders.some((f) => isInside(p, f));
  const roots = await rootsOf(line, deps);
  const seen = new Set<string>();
  const pending = [...roots];
  let listed = 0;
  const max = deps.maxEntries ?? MAX_REWRITE_ENTRIES;
  while (pending.length > 0) {
    const dir = pending.pop() ?? "";
    if (seen.has(dir)) continue;
    seen.add(dir);
    let entries: Awaited<ReturnType<RewriteDeps["fs"]["readdir"]>>;
    try {
      entries = await deps.fs.readdir(dir);
    } catch {
      // Gone, or not a directory: nothing below it for the tool to rewrite.
      continue;
    }
    listed += entries.length;
    if (listed > max)
      return {
        why: `\`${line.command}\` would rewrite files in place across more than ${max.toLocaleString("en")} entries, too many to check for a symbolic link leading out of the workspace`,
        suggestion: "Run it on the directories or files you mean to change.",
      };
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory) {
        if (!rewrite.skips.includes(entry.name)) pending.push(path);
        continue;
      }
      if (!entry.isSymbolicLink) continue;
      let real: string;
      try {
        real = await deps.fs.realpath(path);
      } catch {
        continue;
      }
      if (!inside(real))
        return {
          why: `\`${line.command}\` rewrites the files it visits in place, and ${path} is a symbolic link to ${real}, outside the workspace: the rewrite would land there`,
          suggestion: "Remove the link, or run the tool only on files and directories that hold no link to outside.",
        };
      const st = await deps.fs.lstat(real).catch(() => undefined);
      if (st?.isDirectory === true && !rewrite.skips.includes(entry.name)) pending.push(real);
    }
  }
  return undefined;
}

/**
 * The directories to list. "folder": the workspace folder of the command's directory. "arguments":
 * the directories the arguments name, and the command's directory too unless an argument that is
 * surely a path (not an option's value) names an existing file or directory: with none, the tools
 * work on the current directory.
 */
async function rootsOf(
  line: { args: readonly string[]; rewrite: InPlaceRewrite; place: ArgumentPlace },
  deps: RewriteDeps,
): Promise<string[]> {
  const { place } = line;
  const roots: string[] = [];
  let namesPaths = false;
  for (const [i, arg] of line.args.entries()) {
    const prev = line.args[i - 1];
    const surelyPath = !arg.startsWith("-") && (prev === undefined || !prev.startsWith("-") || prev.includes("="));
    for (const value of pathCandidates(arg)) {
      const path = normalize(isAbsolute(value) ? value : join(place.cwd, value));
      if (!place.folders.some((f) => isInside(path, f))) continue;
      // The path rule has walked each value's own components; only what lies below is new here.
      const real = await deps.fs.realpath(path).catch(() => undefined);
      if (real === undefined) continue;
      if (surelyPath) namesPaths = true;
      const st = await deps.fs.lstat(real).catch(() => undefined);
      if (st?.isDirectory === true) roots.push(real);
    }
  }
  if (line.rewrite.scope === "folder") roots.push(place.folders.find((f) => isInside(place.cwd, f)) ?? place.cwd);
  else if (!namesPaths) roots.push(place.cwd);
  return roots;
}
