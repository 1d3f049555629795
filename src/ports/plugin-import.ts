// The plugin port: how the core imports a plugin's entrypoint. Dynamic import is a language feature,
// but making a second import of the same file run its code again is each runtime's business (Node
// and Deno key their module cache by URL, so a query string busts it; Bun keys it by path and lets
// entries be forgotten), and so is where the bridge itself is installed: both live in runtime/.

/**
 * Where Node and Deno import a reloaded plugin from: <plugin>/.bridge-versions/<generation>/, a copy
 * of its files (runtime/shared/plugin-versions.ts). The plugin's watcher ignores it.
 */
export const PLUGIN_VERSIONS_DIR = ".bridge-versions";

export interface PluginImporter {
  /**
   * Imports the ES module at the absolute path `path` (inside the plugin's directory `root`). Each
   * distinct `generation` gives a new instance of the entrypoint and of every file of the plugin it
   * imports (its node_modules excepted): Bun forgets the files under `root`, Node and Deno import
   * from a per-generation copy of `root`.
   */
  importModule(path: string, opts: { root: string; generation: number }): Promise<unknown>;
  /** Removes what importing the plugin at `root` left on disk (its copies); the bridge stops. */
  release(root: string): Promise<void>;
  /** node_modules folders of the bridge's own installation, nearest first (an npm plugin may sit there). */
  readonly bridgeModuleDirs: readonly string[];
}
