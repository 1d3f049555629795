// The plugin port: how the core imports a plugin's entrypoint. Dynamic import is a language feature,
// but making a second import of the same file run its code again is each runtime's business (Node
// and Deno key their module cache by URL, so a query string busts it; Bun keys it by path and lets
// entries be forgotten), and so is where the bridge itself is installed: both live in runtime/.

export interface PluginImporter {
  /**
   * Imports the ES module at the absolute path `path` (inside the plugin's directory `root`). Each
   * distinct `generation` gives a new instance of the entrypoint. On Bun the other files under
   * `root` are read again too; on Node and Deno, files the entrypoint imports keep their first
   * version (a module cache without eviction), so a plugin meant for hot reload keeps its code in
   * its entrypoint or bundles it.
   */
  importModule(path: string, opts: { root: string; generation: number }): Promise<unknown>;
  /** node_modules folders of the bridge's own installation, nearest first (an npm plugin may sit there). */
  readonly bridgeModuleDirs: readonly string[];
}
