// Opens the directories of a sorted run of paths for readMany, each through its parent's checked
// descriptor where it can: openDirectory(name) on the parent (no symlink followed, O_DIRECTORY),
// then the child's real path from the OS must lie in the workspace. That is one open and one
// readlink per directory, where resolving each path through the jail again costs an lstat per
// component on top of the checked open. The ancestors of the last directory opened are kept open
// (sorted paths share them); a directory whose real path the OS cannot tell (no /proc) is opened
// through the jail as before.
import type { DirHandle, Fs } from "../ports/fs.ts";
import { openCheckedDirectory, type JailedFs } from "../security/jail/checked-open.ts";
import type { Workspace } from "../security/jail/workspace-jail.ts";

interface DirectoryOpener {
  /** A new descriptor of `dir` (root-relative, or absolute in another folder) for the caller to close; undefined when it is not a directory inside. */
  open(dir: string): Promise<DirHandle | undefined>;
  /** Closes the ancestors kept open, once the opens made through them are done. */
  close(): Promise<void>;
}

interface Link {
  path: string;
  handle: Promise<DirHandle | undefined>;
  /** Opens through this descriptor: it is closed only after them, so its number is not reused under them. */
  children: Promise<unknown>[];
}

export function createDirectoryOpener(fs: Fs, jail: Workspace): DirectoryOpener {
  /** chain[k] is the directory of the first k components of the last path ("." for k = 0). */
  let chain: Link[] = [];
  const retired: Promise<void>[] = [];
  const retire = (links: Link[]) => {
    for (const link of links) {
      retired.push(
        Promise.allSettled(link.children)
          .then(() => link.handle)
          .then((h) => h?.close())
          .catch(() => undefined),
      );
    }
  };
  const openChild = (parent: Link, name: string, path: string): Promise<DirHandle | undefined> => {
    const opened = parent.handle.then(async (dir) => {
      const child = await dir?.openDirectory(name).catch(() => undefined);
      if (child === undefined) return undefined;
      const real = await child.realPath().catch(() => undefined);
      if (real !== undefined && jail.contains(real)) return child;
      await child.close().catch(() => undefined);
      return real === undefined ? throughJail({ fs, jail }, path) : undefined;
    });
    parent.children.push(opened);
    return opened;
  };
  return {
    open(dir) {
      if (dir === "." || dir.startsWith("/")) return throughJail({ fs, jail }, dir);
      const parts = dir.split("/");
      const pathOf = (k: number) => (k === 0 ? "." : parts.slice(0, k).join("/"));
      let keep = 0;
      while (keep < chain.length && keep < parts.length && (chain[keep] as Link).path === pathOf(keep)) keep++;
      retire(chain.splice(keep));
      for (let k = chain.length; k < parts.length; k++) {
        const path = pathOf(k);
        chain.push({
          path,
          handle: k === 0 ? throughJail({ fs, jail }, ".") : openChild(chain[k - 1] as Link, parts[k - 1] as string, path),
          children: [],
        });
      }
      return openChild(chain[parts.length - 1] as Link, parts[parts.length - 1] as string, dir);
    },
    async close() {
      retire(chain);
      chain = [];
      await Promise.allSettled(retired);
    },
  };
}

/** The directory through the jail and a checked descriptor; undefined when it is not one (or no longer is). */
async function throughJail(jailed: JailedFs, dir: string): Promise<DirHandle | undefined> {
  try {
    const opened = await openCheckedDirectory(jailed, await jailed.jail.resolve(dir), { label: dir });
    if (opened.stat.isDirectory) return opened.handle;
    await opened.handle.close().catch(() => undefined);
  } catch {
    // Missing, not a directory, or leading outside now: nothing to read there.
  }
  return undefined;
}
