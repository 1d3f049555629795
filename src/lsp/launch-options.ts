// What a server is started with besides its command: its initializationOptions, with the bridge's
// own tsserver.js for typescript-language-server when the project has no TypeScript (shared by the
// server pool and doctor's probe, src/cli/doctor-lsp.ts, so both start a server the same way); and
// its arguments, which keep a server's on-disk cache from leaving the workspace.
// The servers' caches: clangd's background index writes into `.cache/clangd/index` beside the
// compilation database, following a symlink anywhere on that path (it wrote outside the workspace
// through a symlinked `.cache`), so when one of those is a symlink or not a directory, the index
// stays in memory (--background-index=false; answers come from the files clangd has open, and
// whole-project answers are then partial). pyright, tsgo and typescript-language-server keep no
// cache on disk; gopls caches in the user's cache directory (GOCACHE, never the workspace's).
import type { Fs } from "../ports/fs.ts";
import type { LanguageServerLauncher } from "../ports/lsp.ts";
import type { ServerSpec } from "./server-specs.ts";

/** Where clangd finds a compilation database by itself, relative to its root: there, or in build/. */
const CLANGD_DATABASE_DIRS = ["", "build/"];
const CLANGD_INDEX_PATH = [".cache", ".cache/clangd", ".cache/clangd/index"];

interface LaunchOptionDeps {
  launcher: Pick<LanguageServerLauncher, "bundled">;
  fs: Pick<Fs, "lstat">;
}

export async function initializationOptionsFor(spec: ServerSpec, root: string, deps: LaunchOptionDeps): Promise<unknown> {
  const options = spec.initializationOptions;
  if (spec.tsserver === undefined) return options;
  const own = await deps.fs.lstat(`${root}/node_modules/typescript/lib/tsserver.js`).then(
    () => true,
    () => false,
  );
  if (own) return options;
  const path = await deps.launcher.bundled(spec.tsserver);
  return path === undefined ? options : { ...(options as object | undefined), tsserver: { path } };
}

/** The server's arguments: its spec's, less clangd's on-disk background index when it could leave the workspace. */
export async function launchArgsFor(spec: ServerSpec, root: string, deps: Pick<LaunchOptionDeps, "fs">): Promise<readonly string[]> {
  if (!spec.args.includes("--background-index")) return spec.args;
  for (const dir of CLANGD_DATABASE_DIRS) {
    for (const part of CLANGD_INDEX_PATH) {
      const st = await deps.fs.lstat(`${root}/${dir}${part}`).catch(() => undefined);
      // Absent is fine: clangd then makes a real directory.
      if (st !== undefined && (st.isSymbolicLink || !st.isDirectory))
        return spec.args.map((a) => (a === "--background-index" ? "--background-index=false" : a));
    }
  }
  return spec.args;
}
