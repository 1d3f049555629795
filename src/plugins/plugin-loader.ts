// Loads one plugin: finds its directory (a path, or an npm package in the workspace's node_modules or
// the bridge's own), checks its manifest, imports its entrypoint and runs register(ctx). Every step
// that runs the plugin's code is bounded in time and caught: the outcome is the plugin's tools or
// the reason there are none, never an exception that reaches the bridge.
import { errorMessage } from "../errors.ts";
import type { Fs } from "../ports/fs.ts";
import type { PluginImporter } from "../ports/plugin-import.ts";
import { dirname, isAbsolute, isInside, join, normalize } from "../lib/paths/posix-path.ts";
import type { Tool } from "../tools/platform/define-tool.ts";
import { isPluginPath } from "../config/plugin-paths.ts";
import { MANIFEST_FILE, type PluginManifest, parseManifest } from "./manifest.ts";

/** A plugin registers at most this many tools: a catalogue that large is already hard for a model to search. */
export const MAX_TOOLS_PER_PLUGIN = 100;
/** How long importing the entrypoint and running register(ctx) may take together. */
export const REGISTER_TIMEOUT_MS = 15_000;

export interface LoaderDeps {
  fs: Pick<Fs, "readTextFile" | "realpath" | "stat">;
  importer: PluginImporter;
  /** Where a relative --plugin path starts (the bridge's working directory). */
  cwd: string;
  workspaceRoot: string;
}

/** What register(ctx) is given, built per load by the host; its registerTool checks a definition and adds the Tool to `tools`. */
export type RegisterContextFactory = (manifest: PluginManifest, tools: { add(tool: Tool): void }) => unknown;

export type LoadOutcome =
  | { ok: true; manifest: PluginManifest; dir: string; tools: readonly Tool[] }
  | { ok: false; error: string; manifest?: PluginManifest; dir?: string };

/** The plugin's directory: a path as given, else a package of that name in a node_modules above the workspace or the bridge's own. */
export async function resolvePluginDir(source: string, deps: LoaderDeps): Promise<{ dir: string } | { error: string }> {
  const looksLikePath = isPluginPath(source);
  const candidates = looksLikePath ? [isAbsolute(source) ? normalize(source) : join(deps.cwd, source)] : packageCandidates(source, deps);
  for (const candidate of candidates) {
    const real = await deps.fs.realpath(candidate).catch(() => undefined);
    if (
      real !== undefined &&
      (await deps.fs.stat(real).then(
        (s) => s.isDirectory,
        () => false,
      ))
    )
      return { dir: real };
  }
  return {
    error: looksLikePath
      ? `${source}: no such directory (a plugin is a directory holding ${MANIFEST_FILE})`
      : `${source}: no package of that name in the workspace's node_modules or the bridge's (npm install it there, or give its path)`,
  };
}

function packageCandidates(name: string, deps: LoaderDeps): string[] {
  const dirs: string[] = [];
  for (let dir = deps.workspaceRoot; ; dir = dirname(dir)) {
    dirs.push(join(dir, "node_modules"));
    if (dirname(dir) === dir) break;
  }
  return [...dirs, ...deps.importer.bridgeModuleDirs].map((d) => join(d, name));
}

export async function loadPlugin(
  dir: string,
  deps: LoaderDeps & { generation: number; registerContext: RegisterContextFactory },
): Promise<LoadOutcome> {
  let text: string;
  try {
    text = await deps.fs.readTextFile(join(dir, MANIFEST_FILE));
  } catch (err) {
    return { ok: false, dir, error: `${dir} has no readable ${MANIFEST_FILE} (${errorMessage(err)})` };
  }
  const parsed = parseManifest(text);
  if (!parsed.ok) return { ok: false, dir, error: parsed.error };
  const { manifest } = parsed;
  const fail = (error: string): LoadOutcome => ({ ok: false, dir, manifest, error });
  const entry = await deps.fs.realpath(join(dir, manifest.entrypoint)).catch(() => undefined);
  if (entry === undefined) return fail(`entrypoint ${manifest.entrypoint} does not exist in ${dir}`);
  if (!isInside(entry, dir)) return fail(`entrypoint ${manifest.entrypoint} resolves outside the plugin's directory`);
  const tools: Tool[] = [];
  const collected = { add: (tool: Tool) => void tools.push(tool) };
  const run = async (): Promise<string | undefined> => {
    let mod: unknown;
    try {
      mod = await deps.importer.importModule(entry, { root: dir, generation: deps.generation });
    } catch (err) {
      return `importing ${manifest.entrypoint} threw: ${errorMessage(err)}`;
    }
    const register = registerOf(mod);
    if (register === undefined) return `${manifest.entrypoint} exports no register(ctx) function (export function register(ctx) {...})`;
    try {
      await register(deps.registerContext(manifest, collected));
    } catch (err) {
      return `register(ctx) threw: ${errorMessage(err)}`;
    }
    return undefined;
  };
  const problem = await withTimeout(
    run(),
    REGISTER_TIMEOUT_MS,
    `importing ${manifest.entrypoint} and register(ctx) took longer than ${REGISTER_TIMEOUT_MS / 1000} s`,
  );
  if (problem !== undefined) return fail(problem);
  if (tools.length === 0) return fail("register(ctx) registered no tool (call ctx.registerTool)");
  if (tools.length > MAX_TOOLS_PER_PLUGIN) return fail(`registered ${tools.length} tools; at most ${MAX_TOOLS_PER_PLUGIN} per plugin`);
  return { ok: true, manifest, dir, tools };
}

type Register = (ctx: unknown) => unknown;

/** `export function register`, `export default function`, or `export default { register }`. */
function registerOf(mod: unknown): Register | undefined {
  if (typeof mod !== "object" || mod === null) return undefined;
  const m = mod as { register?: unknown; default?: unknown };
  if (typeof m.register === "function") return m.register as Register;
  if (typeof m.default === "function") return m.default as Register;
  const inner = typeof m.default === "object" && m.default !== null ? (m.default as { register?: unknown }).register : undefined;
  return typeof inner === "function" ? (inner as Register) : undefined;
}

async function withTimeout(work: Promise<string | undefined>, ms: number, message: string): Promise<string | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(message), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
