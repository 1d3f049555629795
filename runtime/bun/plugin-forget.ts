// Bun's module cache is keyed by path and ignores a URL's query string, so a plugin is reloaded by
// forgetting its files (require.cache holds Bun's ES modules too) and importing them again.
import { createRequire } from "node:module";
import { sep } from "node:path";

const cache = createRequire(import.meta.url).cache;

/** Forgets every cached module under `root`, except its node_modules (those never hot-reload). */
export function forgetModulesBelow(root: string): void {
  const prefix = root.endsWith(sep) ? root : `${root}${sep}`;
  for (const key of Object.keys(cache)) {
    if (key.startsWith(prefix) && !key.slice(prefix.length).split(sep).includes("node_modules")) delete cache[key];
  }
}
