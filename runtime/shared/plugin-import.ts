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

export interface PluginImporterOptions {
  /** Drops the cached modules below a directory (Bun); without it the URL carries the generation. */
  forgetModulesBelow?(root: string): void;
}

export function createPluginImporter(opts: PluginImporterOptions = {}): PluginImporter {
  const { forgetModulesBelow } = opts;
  return {
    importModule: async (path, { root, generation }) => {
      if (forgetModulesBelow !== undefined) {
        forgetModulesBelow(root);
        return import(pathToFileURL(path).href);
      }
      if (generation <= 1) return import(pathToFileURL(path).href);
      const copy = await copyVersion(root, generation).catch((err: unknown) => {
        throw new Error(`cannot copy the plugin's files for the reload (${err instanceof Error ? err.message : String(err)})`);
      });
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
