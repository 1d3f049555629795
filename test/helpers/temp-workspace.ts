// Small workspaces that tests write file by file under one temporary directory, removed at the end.
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface TempWorkspaces {
  /** Writes `files` (path -> text) under a new folder `name` and returns its real path. */
  make(name: string, files: Record<string, string>): Promise<string>;
  remove(): Promise<void>;
}

export async function tempWorkspaces(prefix: string): Promise<TempWorkspaces> {
  const base = await realpath(await mkdtemp(join(tmpdir(), prefix)));
  return {
    async make(name, files) {
      const root = join(base, name);
      await mkdir(root, { recursive: true });
      for (const [path, text] of Object.entries(files)) {
        await mkdir(join(root, path, ".."), { recursive: true });
        await writeFile(join(root, path), text);
      }
      return root;
    },
    remove: () => rm(base, { recursive: true, force: true }),
  };
}
