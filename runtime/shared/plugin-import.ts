// Imports plugin entrypoints on Node, Bun and Deno. Node and Deno key their module cache by URL, so a
// generation in the query string is a new module; Bun keys it by path, so its adapter forgets the
// plugin's files first (runtime/bun/plugin-forget.ts) and imports the plain path again.
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { PluginImporter } from "../../src/ports/plugin-import.ts";

export interface PluginImporterOptions {
  /** Drops the cached modules below a directory (Bun); without it the URL carries the generation. */
  forgetModulesBelow?(root: string): void;
}

export function createPluginImporter(opts: PluginImporterOptions = {}): PluginImporter {
  const { forgetModulesBelow } = opts;
  return {
    importModule: (path, { root, generation }) => {
      const url = pathToFileURL(path).href;
      if (forgetModulesBelow === undefined) return import(`${url}?generation=${generation}`);
      forgetModulesBelow(root);
      return import(url);
    },
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
