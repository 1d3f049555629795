// A `plugins` entry is a directory or an npm package name. The config file's relative directories
// are the file's own (as a project's config travels with the project); only --plugin flags start
// from the working directory. The loader (src/plugins/plugin-loader.ts) tells the two kinds apart
// by the same rule.
import { dirname, isAbsolute, join } from "../lib/paths/posix-path.ts";

/** "./x", "../x", "/abs", "dir/sub" and "C:\\x" are directories; "pkg" and "@scope/pkg" are npm package names. */
export function isPluginPath(source: string): boolean {
  return source.startsWith(".") || isAbsolute(source) || (source.includes("/") && !source.startsWith("@")) || source.includes("\\");
}

/** The config file's `plugins`, relative directories made absolute against the file's directory. */
export function pluginsFromConfigFile(plugins: readonly string[], configFile: string): string[] {
  const base = dirname(configFile);
  return plugins.map((source) => (isPluginPath(source) && !isAbsolute(source) ? join(base, source) : source));
}
