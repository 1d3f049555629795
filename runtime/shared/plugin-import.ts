// Imports plugin entrypoints on Node, Bun and Deno. Bun keys its module cache by path, so its
// adapter forgets the plugin's files first (runtime/bun/plugin-forget.ts) and imports the plain path
// again. Node and Deno key it by URL and never evict, so a reload imports a copy of the plugin's
// files at new URLs (plugin-versions.ts); the first load imports the plugin where it is.
import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { PluginImporter } from "../../src/ports/plugin-import.ts";
import { copyVersion, removeVersionsBefore } from "./plugin-versions.ts";

/**
 * Node and Deno never free a module, so every reload keeps its version's code: measured over 50
 * reloads through the PluginHost, its files' size plus 12 to 19 KB. Each reload is charged its
 * files' bytes plus RELOAD_OVERHEAD_BYTES; past the budget, reloads are refused with the reason
 * (the last good version keeps serving) until the bridge restarts, so memory stays bounded.
 */
export const RELOAD_BUDGET_BYTES = 32 * 1024 * 1024;
const RELOAD_OVERHEAD_BYTES = 16 * 1024;

export interface PluginImporterOptions {
  /** Drops the cached modules below a directory (Bun); without it reloads import per-version copies. */
  forgetModulesBelow?(root: string): void;
  reloadBudgetBytes?: number;
}

export function createPluginImporter(opts: PluginImporterOptions = {}): PluginImporter {
  const { forgetModulesBelow } = opts;
  const budget = opts.reloadBudgetBytes ?? RELOAD_BUDGET_BYTES;
  const loadedBytes = new Map<string, number>();
  return {
    importModule: async (path, { root, generation }) => {
      if (forgetModulesBelow !== undefined) {
        forgetModulesBelow(root);
        return import(pathToFileURL(path).href);
      }
      if (generation <= 1) return import(pathToFileURL(path).href);
      const spent = loadedBytes.get(root) ?? 0;
      if (spent >= budget) {
        throw new Error(
          `reloads have loaded ${Math.round(spent / 1024)} KB of this plugin's code, and this runtime never frees a module; restart the bridge to load further edits`,
        );
      }
      const { dir: copy, bytes } = await copyVersion(root, generation).catch((err: unknown) => {
        throw new Error(`cannot copy the plugin's files for the reload (${err instanceof Error ? err.message : String(err)})`);
      });
      loadedBytes.set(root, spent + bytes + RELOAD_OVERHEAD_BYTES);
      try {
        const mod = await import(pathToFileURL(join(copy, relative(root, path))).href);
        await removeVersionsBefore(root, generation);
        return mod;
      } catch (err) {
        // A broken version's copy goes; the version serving keeps its own.
        await rm(copy, { recursive: true, force: true }).catch(() => undefined);
        throw err;
      }
    },
    release: (root) => (forgetModulesBelow === undefined ? removeVersionsBefore(root, Number.POSITIVE_INFINITY) : Promise.resolve()),
    bridgeModuleDirs: ownModuleDirs(dirname(fileURLToPath(import.meta.url))),
  };
}

/** Every node_modules folder above this file: the bridge's own, and the project's it is installed into. */
function ownModuleDirs(start: string): string[] {
  const dirs: string[] = [];
  for (let dir = start; ; dir = dirname(dir)) {
    const candidate = join(dir, "node_modules");
    if (existsSync(candidate)) dirs.push(candidate);
    if (dirname(dir) === dir) return dirs;
  }
}
