// Per-version copies of a plugin's directory, for reloads on Node and Deno: their module caches are
// keyed by URL and never evict, so a second import of the same entrypoint URL returns the first
// version, and a query string on the entrypoint makes a new entrypoint whose own imports (the
// plugin's helper modules) still resolve to their first, cached, version. Importing generation N
// from <plugin>/.bridge-versions/N/ gives every file of the plugin a new URL, so a reload runs the
// plugin's current files, all of them. The copy sits inside the plugin's directory so that bare
// imports still find the plugin's node_modules (and those of the folders above it) by walking up.
// A copy is removed once a newer one has loaded (the version serving then has all its modules in
// memory), and every copy when the bridge stops.
import { copyFile, lstat, mkdir, readdir, readlink, rm, symlink } from "node:fs/promises";
import { join } from "node:path";
import { PLUGIN_VERSIONS_DIR } from "../../src/ports/plugin-import.ts";

/** Never copied: dependencies are shared (they do not hot-reload), and git's and our own folders are not the plugin's code. */
const SKIPPED = new Set(["node_modules", ".git", PLUGIN_VERSIONS_DIR]);

/** Copies `root` (its code, not its dependencies) to the folder of `generation`; answers that folder and the bytes copied. */
export async function copyVersion(root: string, generation: number): Promise<{ dir: string; bytes: number }> {
  const target = join(root, PLUGIN_VERSIONS_DIR, String(generation));
  await rm(target, { recursive: true, force: true });
  return { dir: target, bytes: await copyTree(root, target) };
}

/** Removes the copies older than `generation` (all of them with Infinity). */
export async function removeVersionsBefore(root: string, generation: number): Promise<void> {
  const dir = join(root, PLUGIN_VERSIONS_DIR);
  const names = await readdir(dir).catch(() => [] as string[]);
  await Promise.all(names.filter((name) => Number(name) < generation).map((name) => rm(join(dir, name), { recursive: true, force: true })));
  if (generation === Number.POSITIVE_INFINITY) await rm(dir, { recursive: true, force: true });
}

async function copyTree(from: string, to: string): Promise<number> {
  await mkdir(to, { recursive: true });
  let bytes = 0;
  for (const entry of await readdir(from, { withFileTypes: true })) {
    if (SKIPPED.has(entry.name)) continue;
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    if (entry.isDirectory()) bytes += await copyTree(source, target);
    else if (entry.isSymbolicLink()) await symlink(await readlink(source), target);
    else {
      const stat = await lstat(source);
      if (!stat.isFile()) continue;
      await copyFile(source, target);
      bytes += stat.size;
    }
  }
  return bytes;
}
