// What a TypeScript project's compiler answer was computed from, as paths whose state (content or
// absence, or the watcher's word that they did not change) the kept answer is proven by (kept-answers.ts):
// - each workspace file of its program (--listFiles) and every folder above it (a file added,
//   removed or renamed over changes its folder);
// - the workspace's tsconfig and package.json files, and the package.json of every folder above a
//   program file (its `type` decides how the compiler reads the file);
// - every config an `extends` chain reaches, a package's too (`@tsconfig/node20` resolves into
//   node_modules/@tsconfig/node20/tsconfig.json, or a workspace package linked there), each candidate
//   the compiler would try, present or not, so one appearing or changing is seen;
// - the node_modules folder of every folder above a program file or config, and each `@scope` folder
//   in it: a package installed or removed there, a new one under an existing scope included, is an
//   import that failed to resolve before and may resolve now.
import type { ToolContext } from "../../capabilities/context.ts";
import { parseJsonc } from "../../lsp/project-style.ts";
import { dirname, normalize } from "../../lib/paths/posix-path.ts";

/** Links of one `extends` chain followed; a longer one is not kept (the answer is computed again). */
const MAX_EXTENDS = 8;
const MAX_CONFIG_BYTES = 1024 * 1024;
const TSCONFIG = /(?:^|\/)(?:tsconfig[^/]*|jsconfig)\.json$/;

/** The root-relative paths whose state the answer depends on; undefined when one cannot be followed (an extends outside the workspace). */
export async function checkInputPaths(
  ctx: Pick<ToolContext, "fs">,
  opts: { files: readonly string[]; configs: readonly string[] },
): Promise<Set<string> | undefined> {
  const paths = new Set<string>(["."]);
  const folders = new Set<string>([""]);
  const above = (path: string) => {
    for (let dir = path; dir.includes("/"); ) {
      dir = dir.slice(0, dir.lastIndexOf("/"));
      folders.add(dir);
    }
  };
  for (const file of opts.files) {
    paths.add(file);
    above(file);
  }
  for (const dir of folders) {
    paths.add(dir === "" ? "." : dir);
    paths.add(inFolder(dir, "package.json"));
  }
  for (const config of opts.configs) above(config);
  for (const config of opts.configs) {
    paths.add(config);
    if (!TSCONFIG.test(config)) continue;
    const extended = await extendedConfigs(ctx, config);
    if (extended === undefined) return undefined;
    for (const path of extended) paths.add(path);
  }
  for (const dir of folders) for (const path of await packageFolders(ctx, dir)) paths.add(path);
  return paths;
}

/** `name` in the root-relative folder `dir` ("" is the root). */
function inFolder(dir: string, name: string): string {
  return dir === "" ? name : `${dir}/${name}`;
}

/**
 * The folder's node_modules, its @types, and every @scope folder in it (each present or not), and
 * each package linked there (`npm link`, a `file:` or workspace dependency): its link is followed by
 * the state kept, and one leading outside the workspace is refused there, so no answer is kept.
 */
async function packageFolders(ctx: Pick<ToolContext, "fs">, dir: string): Promise<string[]> {
  const modules = inFolder(dir, "node_modules");
  const out = [modules, `${modules}/@types`];
  const scopes: string[] = [];
  for (const entry of await ctx.fs.list(modules).catch(() => [])) {
    if (entry.kind === "symlink") out.push(`${modules}/${entry.name}`);
    if (entry.name.startsWith("@") && entry.kind !== "file") scopes.push(`${modules}/${entry.name}`);
  }
  for (const scope of scopes) {
    out.push(scope);
    for (const entry of await ctx.fs.list(scope).catch(() => [])) if (entry.kind === "symlink") out.push(`${scope}/${entry.name}`);
  }
  return out;
}

/**
 * Every path the compiler may read for the `extends` chains of `config` (root-relative): each
 * candidate file of each link, present or not; undefined when a link leaves the workspace or the
 * chain is longer than MAX_EXTENDS.
 */
async function extendedConfigs(ctx: Pick<ToolContext, "fs">, config: string): Promise<string[] | undefined> {
  const out: string[] = [];
  const queue: { at: string; depth: number }[] = [{ at: config, depth: 0 }];
  const seen = new Set<string>();
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    if (seen.has(next.at)) continue;
    seen.add(next.at);
    const text = await ctx.fs.readText(next.at, { maxBytes: MAX_CONFIG_BYTES }).catch(() => undefined);
    const json = text === undefined ? undefined : parseJsonc(text);
    const specs = json === undefined ? [] : Array.isArray(json.extends) ? json.extends : [json.extends];
    for (const spec of specs) {
      if (typeof spec !== "string" || spec === "") continue;
      if (next.depth >= MAX_EXTENDS) return undefined;
      const candidates = candidatesOf(spec, dirname(next.at) === "." ? "" : dirname(next.at));
      if (candidates === undefined) return undefined;
      out.push(...candidates);
      for (const candidate of candidates) if (!candidate.endsWith("/package.json")) queue.push({ at: candidate, depth: next.depth + 1 });
    }
  }
  return out;
}

/**
 * Where the compiler looks for an `extends` from a config in `dir` (root-relative): a path as is
 * and with .json; a package name in the node_modules of `dir` and of every folder above it, as a
 * file, with .json, as a folder's tsconfig.json, and the package's package.json (whose `tsconfig`
 * or `exports` may point elsewhere in it). Undefined when a path leaves the workspace.
 */
function candidatesOf(spec: string, dir: string): string[] | undefined {
  if (spec.startsWith("/")) return undefined;
  if (spec.startsWith("./") || spec.startsWith("../") || spec === "." || spec === "..") {
    const path = normalize(inFolder(dir, spec));
    if (path === ".." || path.startsWith("../")) return undefined;
    return path.endsWith(".json") ? [path] : [path, `${path}.json`, `${path}/tsconfig.json`];
  }
  const parts = spec.split("/");
  const name = spec.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] ?? spec);
  const out: string[] = [];
  for (let at: string | undefined = dir; at !== undefined; at = at === "" ? undefined : at.includes("/") ? dirname(at) : "") {
    const base = inFolder(at, `node_modules/${spec}`);
    const pkg = inFolder(at, `node_modules/${name}`);
    out.push(base, `${base}.json`, `${base}/tsconfig.json`, pkg, `${pkg}/package.json`);
  }
  return out;
}
