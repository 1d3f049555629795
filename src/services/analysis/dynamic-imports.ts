// Modules loaded by a name computed or written at run time, which no import graph or reference
// search sees: `import("./x")`, `require("./x")` (a literal names its file; anything else makes the
// whole folder possibly loaded), Python's importlib.import_module and __import__. A file reached
// this way is never called unused; a folder with a computed load is said to be assumed used.
import { dirname, normalize } from "../../lib/paths/posix-path.ts";

const LITERAL_JS = /\b(?:import|require)\s*\(\s*(["'`])(\.{1,2}\/[^"'`$]+)\1\s*\)/g;
const COMPUTED_JS = /\b(?:import|require)\s*\(\s*(?!["'`][^"'`$]*["'`]\s*\))[^)\s]/g;
const LITERAL_PY = /\b(?:importlib\.import_module|__import__)\s*\(\s*["']([\w.]+)["']/g;
const COMPUTED_PY = /\b(?:importlib\.import_module|__import__)\s*\(\s*(?!["'][\w.]+["']\s*[,)])/g;

export interface DynamicLoads {
  /** Root-relative paths (without extension for JS, as written) loaded by a literal name. */
  named: Set<string>;
  /** Folders (root-relative) of files that load a computed name: their siblings may be loaded. */
  computedIn: Set<string>;
}

export function emptyLoads(): DynamicLoads {
  return { named: new Set(), computedIn: new Set() };
}

/** Adds what `text` (the content of root-relative `file`) loads dynamically. */
export function collectDynamicLoads(loads: DynamicLoads, source: { file: string; text: string }): void {
  const { file, text } = source;
  if (/\.py$/.test(file)) {
    for (const m of text.matchAll(LITERAL_PY)) loads.named.add((m[1] ?? "").replaceAll(".", "/"));
    if (COMPUTED_PY.test(text)) loads.computedIn.add(dirname(file));
    COMPUTED_PY.lastIndex = 0;
    return;
  }
  if (!/\.[cm]?[jt]sx?$/.test(file)) return;
  for (const m of text.matchAll(LITERAL_JS)) loads.named.add(stripExtension(normalize(`${dirname(file)}/${m[2] ?? ""}`)));
  if (COMPUTED_JS.test(text)) loads.computedIn.add(dirname(file));
  COMPUTED_JS.lastIndex = 0;
}

/** Why a file may be loaded dynamically, or undefined. */
export function loadedDynamically(loads: DynamicLoads, file: string): string | undefined {
  const stem = stripExtension(file);
  if (
    loads.named.has(stem) ||
    loads.named.has(stem.replace(/\/(?:index|__init__)$/, "")) ||
    [...loads.named].some((n) => stem.endsWith(`/${n}`) || stem === n)
  )
    return "loaded by a dynamic import";
  if (loads.computedIn.has(dirname(file))) return "its folder has a dynamic import of a computed name";
  return undefined;
}

function stripExtension(path: string): string {
  return path.replace(/\.(?:[cm]?[jt]sx?|py)$/, "");
}
