// Checker output names files absolutely, relative to the cwd, or as "./x": all become root-relative.

export function relativeTo(root: string, path: string): string {
  const prefix = root.endsWith("/") ? root : `${root}/`;
  const rel = path.startsWith(prefix) ? path.slice(prefix.length) : path;
  return rel.replace(/^\.\//, "");
}

/** Go tools take packages: a .go file's directory ("./pkg"), or the directory itself. */
export function goPackageOf(file: string): string {
  const dir = file.endsWith(".go") ? file.slice(0, Math.max(0, file.lastIndexOf("/"))) : file;
  return dir === "" || dir === "." ? "." : `./${dir}`;
}

/** The extension of a path, with its dot, lowercase ("" for none). */
export function extensionOf(path: string): string {
  const name = path.slice(path.lastIndexOf("/") + 1);
  const dot = name.lastIndexOf(".");
  return dot <= 0 ? "" : name.slice(dot).toLowerCase();
}
