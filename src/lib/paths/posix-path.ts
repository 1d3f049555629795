// POSIX path helpers for the core, which may not import node:path (DESIGN.md, "The one rule").
// Purely lexical: nothing here touches the filesystem or resolves symlinks.

export function isAbsolute(path: string): boolean {
  return path.startsWith("/");
}

/** Collapses "//", "." and ".."; an absolute path never climbs above "/". Empty becomes ".". */
export function normalize(path: string): string {
  const absolute = isAbsolute(path);
  const out: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (out.length > 0 && out[out.length - 1] !== "..") out.pop();
      else if (!absolute) out.push("..");
      continue;
    }
    out.push(part);
  }
  const body = out.join("/");
  if (absolute) return `/${body}`;
  return body === "" ? "." : body;
}

export function join(...parts: string[]): string {
  const nonEmpty = parts.filter((p) => p !== "");
  return nonEmpty.length === 0 ? "." : normalize(nonEmpty.join("/"));
}

export function dirname(path: string): string {
  const norm = normalize(path);
  const cut = norm.lastIndexOf("/");
  if (cut < 0) return ".";
  return cut === 0 ? "/" : norm.slice(0, cut);
}

export function basename(path: string): string {
  const norm = normalize(path);
  if (norm === "/") return "";
  return norm.slice(norm.lastIndexOf("/") + 1);
}

/** True when `child` is `parent` itself or lies below it (both absolute and normalized). */
export function isInside(child: string, parent: string): boolean {
  if (child === parent) return true;
  const prefix = parent.endsWith("/") ? parent : `${parent}/`;
  return child.startsWith(prefix);
}

/** The path from `from` to `to`, both absolute; "" when they are the same. */
export function relative(from: string, to: string): string {
  const a = splitAbsolute(from);
  const b = splitAbsolute(to);
  let common = 0;
  while (common < a.length && common < b.length && a[common] === b[common]) common++;
  const ups = a.slice(common).map(() => "..");
  return [...ups, ...b.slice(common)].join("/");
}

function splitAbsolute(path: string): string[] {
  return normalize(path)
    .split("/")
    .filter((p) => p !== "");
}
