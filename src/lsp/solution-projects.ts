// A solution-style tsconfig (`"files": []` with `references`) holds no code of its own: tsgo and
// tsserver load a referenced project only once one of its files is open, and answer references from
// the projects loaded so far (on a real repository: 16 of 51 references, the spec project's uses
// missing). So before a whole-project answer, one file of every project the root config's
// references reach is opened in the server: then the answer is about all of them, as "complete"
// says. A server whose root is the workspace folder (one for every package of a monorepo) gets
// every tsconfig and jsconfig under it too, and what they reference: another package's uses are
// found only once its project is loaded. A project that cannot be loaded this way (its config
// unreadable, no file of it found, more projects than the bound) is named as the reason the
// answer is partial.
import { compileGlob, type GlobMatcher } from "../lib/glob/index.ts";
import { dirname, isInside, normalize, relative } from "../lib/paths/posix-path.ts";
import { parseJsonc } from "./project-style.ts";
import { tsProjectsFrom } from "./tsconfig-walk.ts";

/** Projects looked at per root: a solution of more than this is said partial, not loaded in full. */
const MAX_PROJECTS = 24;
const TS_SOURCE = /\.(?:ts|tsx|mts|cts)$/;
/** What a jsconfig's project holds. */
const JS_OR_TS_SOURCE = /\.(?:[cm]?[jt]s|[jt]sx)$/;

export interface SolutionDeps {
  /** A config's text, undefined when it is missing or unreadable. */
  readText(path: string): Promise<string | undefined>;
  /** The first file under `dir` (absolute) that `wanted` accepts (given its path relative to `dir`), within a bound. */
  findFile(dir: string, wanted: (rel: string) => boolean): Promise<string | undefined>;
  /**
   * Every tsconfig.json and jsconfig.json under `dir` (absolute), for a server of a whole workspace
   * folder; `cut` says why the search stopped before it had looked everywhere.
   */
  configsUnder?(dir: string): Promise<{ configs: string[]; cut?: string }>;
}

export interface SolutionFiles {
  /** One file per referenced project, to open in the server. */
  files: string[];
  /** Why some project cannot be loaded this way; undefined when every one can. */
  missing?: string;
}

/**
 * One file of each project `root`/tsconfig.json references (transitively), nothing for a config
 * without references; with `configsUnder`, of each config under `root` and what they reference.
 */
export async function solutionFiles(root: string, deps: SolutionDeps): Promise<SolutionFiles> {
  const found = await deps.configsUnder?.(root);
  const under = found?.configs ?? [];
  // The root's own project is loaded by the file asked about, unless other packages are looked for too.
  const own = under.length > 0 ? undefined : `${root}/tsconfig.json`;
  const files: string[] = [];
  const missing: string[] = found?.cut === undefined ? [] : [`any under ${found.cut}`];
  let count = 0;
  for await (const { config, project } of tsProjectsFrom(own === undefined ? under : [own], {
    within: root,
    read: (c) => readTsProject(c, deps),
  })) {
    if (++count > MAX_PROJECTS + 1) {
      missing.push(`more than ${MAX_PROJECTS} referenced projects`);
      break;
    }
    const name = relative(root, config);
    if (config === own) {
      if (project === undefined) break;
      continue;
    }
    if (project === undefined) {
      missing.push(`${name} (unreadable)`);
      continue;
    }
    // A solution config holds no file of its own: its references are the projects.
    if (project.solution) continue;
    const file = await firstFileOf(config, project.json, deps);
    if (file === undefined) missing.push(`${name} (no file of it found)`);
    else files.push(file);
  }
  return { files, ...(missing.length === 0 ? {} : { missing: `projects not loaded: ${missing.join(", ")}` }) };
}

/** The tsconfig files a config's `references` name (a folder means its tsconfig.json). */
async function referencesOf(config: string, deps: SolutionDeps, parsed?: Record<string, unknown>): Promise<string[]> {
  const json = parsed ?? parseJsonc((await deps.readText(config)) ?? "");
  const references = json?.references;
  if (!Array.isArray(references)) return [];
  return references.flatMap((r: unknown) => {
    const path = typeof r === "object" && r !== null ? (r as { path?: unknown }).path : undefined;
    if (typeof path !== "string" || path === "" || path.includes("\0")) return [];
    const full = normalize(path.startsWith("/") ? path : `${dirname(config)}/${path}`);
    return [full.endsWith(".json") ? full : `${full}/tsconfig.json`];
  });
}

/** A TypeScript file the project holds: its first `files` entry, else the first found its include and exclude let in. */
async function firstFileOf(config: string, json: Record<string, unknown>, deps: SolutionDeps): Promise<string | undefined> {
  const dir = dirname(config);
  const listed = strings(json.files);
  if (listed.length > 0) return normalize(`${dir}/${listed[0]}`);
  const include = (strings(json.include).length > 0 ? strings(json.include) : ["**/*"]).flatMap(matcher);
  const exclude = strings(json.exclude).flatMap(matcher);
  const source = config.endsWith("/jsconfig.json") ? JS_OR_TS_SOURCE : TS_SOURCE;
  return deps.findFile(dir, (rel) => source.test(rel) && include.some((m) => m.matches(rel)) && !exclude.some((m) => m.matches(rel)));
}

/** A tsconfig pattern as a glob: a name without wildcard or extension is a folder, and means everything in it. */
function matcher(pattern: string): GlobMatcher[] {
  const clean = pattern.replace(/^\.\//, "").replace(/\/+$/, "");
  const last = clean.split("/").pop() ?? "";
  // As the compiler reads it: a last segment with neither a wildcard nor an extension is a folder.
  const glob = /[*?]/.test(last) || /\.[a-z]+$/i.test(last) ? clean : `${clean}/**/*`;
  try {
    return [compileGlob(glob)];
  } catch {
    return [];
  }
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

export interface TsProject {
  /** The tsconfig, absolute. */
  config: string;
  /** Its own JSON, as read (not what it extends). */
  json: Record<string, unknown>;
  /** The tsconfig files its `references` name (absolute, normalised; possibly outside the workspace). */
  references: string[];
  /** No file of its own (`"files": []` and no `include`): a solution config, whose references are the projects. */
  solution: boolean;
  /** Whether a file (absolute) is one of its own by `files`, `include` and `exclude`, as the compiler chooses its root files. */
  owns(path: string): boolean;
}

/** Links of an `extends` chain followed for `files`, `include` and `exclude`, which a config inherits. */
const MAX_EXTENDS = 8;
/** What the compiler leaves out when a config sets no `exclude`. */
const DEFAULT_EXCLUDE = ["node_modules", "bower_components", "jspm_packages"];

/**
 * A tsconfig read for which files it holds: `files`, `include` and `exclude` from it or the nearest
 * config it extends by a relative path that sets them (each relative to the config that sets it).
 * Undefined when the config is missing or unreadable.
 */
export async function readTsProject(config: string, deps: Pick<SolutionDeps, "readText">): Promise<TsProject | undefined> {
  const text = await deps.readText(config);
  const json = text === undefined ? undefined : parseJsonc(text);
  if (json === undefined) return undefined;
  const references = await referencesOf(config, { ...deps, findFile: async () => undefined }, json);
  const lists: Partial<Record<"files" | "include" | "exclude", { dir: string; values: string[] }>> = {};
  let current: Record<string, unknown> | undefined = json;
  let at = config;
  for (let link = 0; current !== undefined && link < MAX_EXTENDS; link++) {
    for (const key of ["files", "include", "exclude"] as const)
      if (lists[key] === undefined && Array.isArray(current[key])) lists[key] = { dir: dirname(at), values: strings(current[key]) };
    const parent: unknown = Array.isArray(current.extends) ? current.extends[current.extends.length - 1] : current.extends;
    if (typeof parent !== "string" || !/^\.{0,2}\//.test(parent)) break;
    at = normalize(parent.startsWith("/") ? parent : `${dirname(at)}/${parent}`);
    if (!at.endsWith(".json")) at = `${at}.json`;
    const parentText = await deps.readText(at);
    current = parentText === undefined ? undefined : parseJsonc(parentText);
  }
  const files = new Set((lists.files?.values ?? []).map((f) => normalize(`${lists.files?.dir}/${f}`)));
  const include = lists.include ?? (lists.files === undefined ? { dir: dirname(config), values: ["**/*"] } : undefined);
  const exclude = lists.exclude ?? { dir: include?.dir ?? dirname(config), values: DEFAULT_EXCLUDE };
  const includes = include?.values.flatMap(matcher) ?? [];
  const excludes = exclude.values.flatMap(matcher);
  const within = (dir: string, path: string) => (isInside(path, dir) ? relative(dir, path) : undefined);
  return {
    config,
    json,
    references,
    solution: files.size === 0 && include === undefined,
    owns(path) {
      if (files.has(path)) return true;
      if (include === undefined || !TS_SOURCE.test(path)) return false;
      const rel = within(include.dir, path);
      const excluded = within(exclude.dir, path);
      return (
        rel !== undefined && includes.some((m) => m.matches(rel)) && !(excluded !== undefined && excludes.some((m) => m.matches(excluded)))
      );
    },
  };
}
