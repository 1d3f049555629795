// Loads one plugin: finds its directory (a path, or an npm package in the workspace's node_modules or
// the bridge's own), checks its manifest, and has a worker of its own import its entrypoint and run
// register(ctx) (plugin-worker-client.ts). Every step that runs the plugin's code is bounded in time
// and runs off the bridge's thread: the outcome is the plugin's tools or the reason there are none,
// never an exception that reaches the bridge.
import { errorMessage } from "../errors.ts";
import type { Fs } from "../ports/fs.ts";
import type { PluginImporter } from "../ports/plugin-import.ts";
import type { LoadResult, PluginVersion } from "./plugin-worker-client.ts";
import { dirname, isAbsolute, isInside, join, normalize } from "../lib/paths/posix-path.ts";
import type { Tool } from "../tools/platform/define-tool.ts";
import { isPluginPath } from "../config/plugin-paths.ts";
import { MANIFEST_FILE, type PluginManifest, parseManifest } from "./manifest.ts";

/** A plugin registers at most this many tools: a catalogue that large is already hard for a model to search. */
export const MAX_TOOLS_PER_PLUGIN = 100;
/** How long starting the worker, importing the entrypoint and running register(ctx) may take together. */
export const REGISTER_TIMEOUT_MS = 15_000;

export interface LoaderDeps {
  fs: Pick<Fs, "readTextFile" | "realpath" | "stat">;
  importer: PluginImporter;
  /** Where a relative --plugin path starts (the bridge's working directory). */
  cwd: string;
  workspaceRoot: string;
}

export type LoadOutcome =
  | { ok: true; manifest: PluginManifest; dir: string; tools: readonly Tool[]; version: PluginVersion }
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

export interface LoadDeps extends LoaderDeps {
  /** A version of the plugin in a worker of its own, not started yet. */
  version(manifest: PluginManifest, entry: string): PluginVersion;
  /** A definition the worker registered, as the Tool whose calls go to `version` (throws for a bad definition). */
  toolOf(definition: Record<string, unknown>, load: { manifest: PluginManifest; version: PluginVersion }): Tool;
}

export async function loadPlugin(dir: string, deps: LoadDeps): Promise<LoadOutcome> {
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
  const version = deps.version(manifest, entry);
  const loaded = await version.start();
  const problem = loaded.ok ? toolsOf(loaded.tools, { manifest, version, deps }) : describeFailure(loaded, manifest);
  if (typeof problem === "string") {
    await version.stop();
    return fail(problem);
  }
  return { ok: true, manifest, dir, tools: problem, version };
}

function toolsOf(
  definitions: readonly Record<string, unknown>[],
  load: { manifest: PluginManifest; version: PluginVersion; deps: LoadDeps },
): Tool[] | string {
  if (definitions.length === 0) return "register(ctx) registered no tool (call ctx.registerTool)";
  if (definitions.length > MAX_TOOLS_PER_PLUGIN)
    return `registered ${definitions.length} tools; at most ${MAX_TOOLS_PER_PLUGIN} per plugin`;
  try {
    return definitions.map((definition) => load.deps.toolOf(definition, load));
  } catch (err) {
    return errorMessage(err);
  }
}

function describeFailure(failure: Extract<LoadResult, { ok: false }>, manifest: PluginManifest): string {
  switch (failure.stage) {
    case "import":
      return `importing ${manifest.entrypoint} threw: ${failure.message}`;
    case "exports":
      return `${manifest.entrypoint} exports no register(ctx) function (export function register(ctx) {...})`;
    case "register":
      return `register(ctx) threw: ${failure.message}`;
    case "worker":
      return `importing ${manifest.entrypoint} and register(ctx) in the plugin's worker: ${failure.message}`;
  }
}
