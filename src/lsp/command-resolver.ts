// Finds a server's executable: shipped with the bridge first (known versions, nothing the
// workspace planted), then the workspace's node_modules/.bin, then PATH. Looked up once per
// (server, root) and cached, found or not, until the bridge restarts.
import type { Fs } from "../ports/fs.ts";
import type { LanguageServerLauncher } from "../ports/lsp.ts";
import type { Runtime } from "../ports/runtime.ts";
import { isInside } from "../lib/paths/posix-path.ts";
import type { CommandSource, ServerSpec } from "./server-specs.ts";

export interface ResolvedCommand {
  command: string;
  /** Where it was found: "bundled", "workspace" or "PATH". */
  from: "bundled" | "workspace" | "PATH";
}

interface CommandResolverDeps {
  launcher: Pick<LanguageServerLauncher, "bundled">;
  which: Runtime["which"];
  fs: Pick<Fs, "realpath" | "stat">;
}

export function createCommandResolver(deps: CommandResolverDeps) {
  const cache = new Map<string, Promise<ResolvedCommand | undefined>>();
  const one = async (source: CommandSource, root: string): Promise<ResolvedCommand | undefined> => {
    if ("bundled" in source) {
      const path = await deps.launcher.bundled(source.bundled);
      return path === undefined ? undefined : { command: path, from: "bundled" };
    }
    if ("workspaceBin" in source) {
      const path = await deps.fs.realpath(`${root}/node_modules/.bin/${source.workspaceBin}`).catch(() => undefined);
      // A link out of the workspace is not the workspace's server.
      if (path === undefined || !isInside(path, root)) return undefined;
      return (await deps.fs.stat(path).catch(() => undefined))?.isFile ? { command: path, from: "workspace" } : undefined;
    }
    const path = await deps.which(source.onPath);
    return path === undefined ? undefined : { command: path, from: "PATH" };
  };
  return (spec: ServerSpec, root: string): Promise<ResolvedCommand | undefined> => {
    const key = `${spec.id}\0${root}`;
    let found = cache.get(key);
    if (found === undefined) {
      found = (async () => {
        for (const source of spec.command) {
          const resolved = await one(source, root).catch(() => undefined);
          if (resolved !== undefined) return resolved;
        }
        return undefined;
      })();
      cache.set(key, found);
    }
    return found;
  };
}

export type CommandResolver = ReturnType<typeof createCommandResolver>;
