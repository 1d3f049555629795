// Which languages a project has, for doctor: a shallow, bounded walk of its files (dependencies,
// build output and hidden directories left out), each file named by src/lsp's language table or a
// configured server's filePatterns. doctor starts only the servers the bridge would start here.
import type { Fs } from "../ports/fs.ts";
import { compileGlob } from "../lib/glob/index.ts";
import { languageIdOf } from "../lsp/languages.ts";
import type { ServerSpec } from "../lsp/server-specs.ts";

const MAX_ENTRIES = 3000;
const MAX_DEPTH = 6;
const SKIPPED = new Set(["node_modules", "dist", "build", "out", "target", "vendor", "coverage", "__pycache__"]);

export async function projectLanguages(
  fs: Pick<Fs, "readdir">,
  project: { root: string; configured: readonly ServerSpec[] },
): Promise<Set<string>> {
  const { root, configured } = project;
  const patterns = configured.flatMap((spec) =>
    (spec.filePatterns ?? []).map((p) => ({ matcher: compileGlob(p), language: spec.languages[0] ?? "" })),
  );
  const found = new Set<string>();
  let seen = 0;
  const walk = async (dir: string, rel: string, depth: number): Promise<void> => {
    const entries = await fs.readdir(dir).catch(() => []);
    for (const entry of entries) {
      if (++seen > MAX_ENTRIES) return;
      if (entry.name.startsWith(".") && entry.name !== ".bashrc" && entry.name !== ".profile") continue;
      const path = rel === "" ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory) {
        if (depth < MAX_DEPTH && !SKIPPED.has(entry.name)) await walk(`${dir === "/" ? "" : dir}/${entry.name}`, path, depth + 1);
        continue;
      }
      if (!entry.isFile) continue;
      const configuredLanguage = patterns.find((p) => p.matcher.matches(path))?.language;
      const language = configuredLanguage ?? languageIdOf(path);
      if (language !== undefined) found.add(language);
    }
  };
  await walk(root, "", 0);
  return found;
}
