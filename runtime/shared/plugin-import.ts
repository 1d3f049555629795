// The plugin port on Node, Bun and Deno (src/ports/plugin-import.ts): each runtime file passes how it
// starts a worker on the bootstrap (runtime/shared/plugin-worker.mjs); what is shared is where the
// bridge's own node_modules are, for plugins installed as npm packages beside it.
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { PluginImporter } from "../../src/ports/plugin-import.ts";

export function createPluginImporter(workers: Pick<PluginImporter, "startWorker" | "memoryLimit">): PluginImporter {
  return { ...workers, bridgeModuleDirs: ownModuleDirs(dirname(fileURLToPath(import.meta.url))) };
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
