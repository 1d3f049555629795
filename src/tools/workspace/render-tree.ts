// Renders walker entries as an indented text tree: two spaces per level, "/" after
// directories, "@" after symlinks (as `ls -F` does), sizes in human units. Names are escaped
// (src/lib/text/display-name.ts), so no name can fake a line of the tree.
import { displayName } from "../../lib/text/display-name.ts";

export interface TreeItem {
  /** Relative to the listed directory. */
  path: string;
  kind: "file" | "directory" | "symlink" | "other";
  size?: number | undefined;
}

export function renderTree(rootLabel: string, items: readonly TreeItem[], opts: { truncated: boolean }): string {
  const children = new Map<string, TreeItem[]>();
  for (const item of items) {
    const cut = item.path.lastIndexOf("/");
    const parent = cut < 0 ? "" : item.path.slice(0, cut);
    const list = children.get(parent) ?? [];
    list.push(item);
    children.set(parent, list);
  }
  const lines = [rootLabel === "." ? "./" : `${displayName(rootLabel)}/`];
  const visit = (dir: string, depth: number) => {
    for (const item of [...(children.get(dir) ?? [])].sort(compareItems)) {
      lines.push(`${"  ".repeat(depth)}${label(item)}`);
      if (item.kind === "directory") visit(item.path, depth + 1);
    }
  };
  visit("", 1);
  if (opts.truncated) lines.push(`[truncated at ${items.length} entries: raise maxEntries, lower maxDepth or list a subdirectory]`);
  return lines.join("\n");
}

function label(item: TreeItem): string {
  const name = displayName(item.path.slice(item.path.lastIndexOf("/") + 1));
  if (item.kind === "directory") return `${name}/`;
  if (item.kind === "symlink") return `${name}@`;
  return item.size === undefined ? name : `${name} (${humanSize(item.size)})`;
}

function compareItems(a: TreeItem, b: TreeItem): number {
  const aDir = a.kind === "directory";
  if (aDir !== (b.kind === "directory")) return aDir ? -1 : 1;
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

function humanSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KB", "MB", "GB", "TB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}
