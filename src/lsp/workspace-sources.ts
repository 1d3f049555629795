// A few source files to open when a workspace request (symbols, errors) comes before any file
// request: servers like TypeScript's load a project only for an open file. One file per language,
// for the most common languages of the first files a shallow walk meets.
import type { WorkspaceFs } from "../workspace/workspace-fs.ts";

const SCAN_ENTRIES = 2000;
const LANGUAGES_OPENED = 2;

export async function findWorkspaceSources(
  fs: WorkspaceFs,
  opts: { languageOf: (relative: string) => string | undefined; signal: AbortSignal },
): Promise<string[]> {
  const { languageOf, signal } = opts;
  const first = new Map<string, { file: string; count: number }>();
  let seen = 0;
  for await (const entry of fs.walk(".", { maxDepth: 8, includeHidden: false, signal })) {
    if (++seen > SCAN_ENTRIES) break;
    // The walk already leaves out dependencies, build output and what .gitignore ignores.
    if (entry.kind !== "file") continue;
    const language = languageOf(entry.rel);
    if (language === undefined || language === "json" || language === "jsonc" || language === "yaml") continue;
    const known = first.get(language);
    if (known === undefined) first.set(language, { file: entry.rel, count: 1 });
    else known.count += 1;
  }
  return [...first.values()]
    .sort((a, b) => b.count - a.count)
    .slice(0, LANGUAGES_OPENED)
    .map((f) => f.file);
}
