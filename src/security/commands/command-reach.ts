// runCommand's checks that need the disk or the network (src/security/commands/command-policy.ts,
// check 5), after the lexical ones passed:
//   - every value in the arguments that could be a path is walked component by component as the
//     kernel would (a symlink replaced by its target before the next name, ".." climbing from the
//     target), and refused when it leads outside the workspace or through a dangling link. The
//     walk never looks outside: it stops at the first step that leaves.
//   - go's -overlay file names files go reads instead of the project's: each is checked the same way.
//   - a formatter or fixer run that rewrites files in place finds no symlink leading outside in the
//     trees it walks (src/security/commands/rewrite-links.ts).
//   - the project's config files that tool reads (.npmrc, .cargo/config.toml, pytest's addopts):
//     hosts they name, programs and plugins they load (src/security/commands/project-config.ts).
//   - the hosts the arguments make the tool connect to (src/security/commands/rules/*: a
//     registry, a clone URL, a module path) pass the SSRF rule of sendHttpRequest
//     (src/security/network/ssrf.ts: no loopback, private, link-local or metadata address, by
//     spelling or by what the name resolves to), unless --allow-private-http.
import type { Fs } from "../../ports/fs.ts";
import type { Runtime } from "../../ports/runtime.ts";
import { dirname, isAbsolute, isInside, join, normalize } from "../../lib/paths/posix-path.ts";
import { fsErrorCode } from "../../errors.ts";
import { hostBlockReason } from "../network/ssrf.ts";
import { type ArgumentPlace, argumentOutside, pathCandidates } from "./argument-paths.ts";
import { TOOL_RULES } from "./command-rules.ts";
import type { Refusal } from "./command-policy.ts";
import { checkProjectConfig } from "./project-config.ts";
import { checkRewriteLinks } from "./rewrite-links.ts";

export interface ReachDeps {
  fs: Pick<Fs, "lstat" | "realpath" | "readdir">;
  resolveHost: Runtime["resolveHost"];
  /** --allow-private-http: private and loopback hosts are allowed too. */
  allowPrivate: boolean;
  /** A workspace file's text, or undefined when it cannot be read (go's -overlay). */
  readText(path: string): Promise<string | undefined>;
}

/** Longest value walked: longer ones are no path the kernel would take (PATH_MAX). */
const MAX_PATH = 4096;

export async function checkCommandReach(
  line: { command: string; args: readonly string[]; place: ArgumentPlace },
  deps: ReachDeps,
): Promise<Refusal | undefined> {
  const { command, args, place } = line;
  const rules = TOOL_RULES[command];
  const values: [string, string][] = [
    ...args.flatMap((arg) => pathCandidates(arg).map((v): [string, string] => [arg, v])),
    ...(rules?.paths?.(args) ?? []).map((p): [string, string] => [p, p]),
  ];
  if (command === "go") {
    const overlay = await overlayPaths(args, { place, deps });
    // The lexical rule has not seen these.
    const outside = argumentOutside([], place, { extraPaths: overlay.map(([, p]) => p) });
    if (outside !== undefined)
      return {
        why: `go's -overlay file names ${outside.path}, outside the workspace`,
        suggestion: "Overlay only files inside the workspace.",
      };
    values.push(...overlay);
  }
  for (const [arg, value] of values) {
    if (value.length > MAX_PATH || value.startsWith("~")) continue;
    const path = isAbsolute(value) ? value : `${place.cwd}/${value}`;
    // Lexically outside is the lexical rule's to refuse (it has): the walk looks only inside.
    if (!place.folders.some((f) => isInside(normalize(path), f))) continue;
    const outside = await leadsOutside(path, { fs: deps.fs, folders: place.folders });
    if (outside !== undefined) {
      return {
        why: `The argument \`${arg.slice(0, 200)}\` leads outside the workspace: ${outside}`,
        suggestion: "Use paths inside the workspace that do not go through a symbolic link to elsewhere.",
      };
    }
  }
  const rewrite = rules?.rewrites?.(args);
  if (rewrite !== undefined) {
    const refusal = await checkRewriteLinks({ command, args, rewrite, place }, { fs: deps.fs });
    if (refusal !== undefined) return refusal;
  }
  const configured = await checkProjectConfig(line, deps);
  if (configured !== undefined) return configured;
  if (deps.allowPrivate) return undefined;
  for (const target of rules?.targets?.(args) ?? []) {
    const why = await hostBlockReason(target.host, { resolveHost: deps.resolveHost });
    if (why === undefined) continue;
    return {
      why: `The argument \`${target.arg.slice(0, 200)}\` makes ${command} connect to ${target.host}, which is refused: ${why}`,
      suggestion:
        "runCommand reaches only public addresses, as sendHttpRequest does (SSRF defence). To reach a service on this machine or your network, the user must restart the bridge with --allow-private-http.",
    };
  }
  return undefined;
}

/**
 * Where `path` (absolute, raw: "." and ".." kept) really leads, if outside the workspace: the walk
 * replaces each symlink by its real target before the next component, as the kernel does.
 */
async function leadsOutside(path: string, ctx: { fs: ReachDeps["fs"]; folders: readonly string[] }): Promise<string | undefined> {
  const inside = (p: string) => ctx.folders.some((f) => isInside(p, f));
  const components = path.split("/").filter((c) => c !== "" && c !== ".");
  let real = "/";
  for (const component of components) {
    if (component === "..") {
      real = dirname(real);
      continue;
    }
    const candidate = real === "/" ? `/${component}` : `${real}/${component}`;
    // Above the workspace folders the components are the folders' own, which are real paths.
    if (!inside(candidate)) {
      if (ctx.folders.some((f) => isInside(f, candidate))) {
        real = candidate;
        continue;
      }
      return candidate;
    }
    let st: Awaited<ReturnType<ReachDeps["fs"]["lstat"]>>;
    try {
      st = await ctx.fs.lstat(candidate);
    } catch (err) {
      // What does not exist yet is created below `real`, which is inside.
      if (["ENOENT", "ENOTDIR", "ENAMETOOLONG", "EACCES"].includes(fsErrorCode(err) ?? "")) return undefined;
      throw err;
    }
    if (!st.isSymbolicLink) {
      real = candidate;
      continue;
    }
    try {
      real = await ctx.fs.realpath(candidate);
    } catch {
      return `${candidate} is a symbolic link whose target does not exist (what the tool writes through it lands where the link points)`;
    }
    if (!inside(real)) return `${candidate} is a symbolic link to ${real}`;
  }
  return inside(real) ? undefined : real;
}

/** The files a go -overlay JSON names ({"Replace": {"a.go": "/elsewhere/b.go"}}), keys and values. */
async function overlayPaths(args: readonly string[], ctx: { place: ArgumentPlace; deps: ReachDeps }): Promise<[string, string][]> {
  const found: [string, string][] = [];
  for (const [i, arg] of args.entries()) {
    if (arg === "--" || arg === "-args") break;
    const m = /^--?overlay(?:=(.*))?$/.exec(arg);
    if (m === null) continue;
    const file = m[1] ?? args[i + 1];
    if (file === undefined) continue;
    const text = await ctx.deps.readText(isAbsolute(file) ? file : join(ctx.place.cwd, file));
    let replace: unknown;
    try {
      replace = text === undefined ? undefined : (JSON.parse(text) as { Replace?: unknown }).Replace;
    } catch {
      replace = undefined;
    }
    if (replace === null || typeof replace !== "object") continue;
    for (const [from, to] of Object.entries(replace as Record<string, unknown>)) {
      found.push([arg, from]);
      if (typeof to === "string" && to !== "") found.push([arg, to]);
    }
  }
  return found;
}
