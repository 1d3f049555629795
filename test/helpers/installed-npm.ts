// The npm installed beside the node running the tests, for tests that compare the bridge's reading
// of npm's command line with npm's own code (its command table and its package-spec parser). Found
// through PATH like a shell would, without starting a process.
import { existsSync, realpathSync } from "node:fs";
import { createRequire } from "node:module";
import { delimiter, dirname, join } from "node:path";

/** npm's package directory (.../node_modules/npm). */
export function installedNpmRoot(): string {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    const bin = join(dir, "npm");
    if (!existsSync(bin)) continue;
    // bin/npm is a link to (or a copy beside) node_modules/npm/bin/npm-cli.js.
    let at = dirname(realpathSync(bin));
    for (let i = 0; i < 4; i++, at = dirname(at)) {
      if (existsSync(join(at, "lib", "utils", "cmd-list.js"))) return at;
      const nested = join(at, "lib", "node_modules", "npm");
      if (existsSync(join(nested, "lib", "utils", "cmd-list.js"))) return nested;
    }
  }
  throw new Error("npm is not on PATH: these tests compare with npm's own code");
}

/** A module of the installed npm (or of one of its dependencies), loaded in this process. */
export function requireFromNpm<T>(path: string): T {
  const root = installedNpmRoot();
  return createRequire(join(root, "package.json"))(path.startsWith(".") ? join(root, path) : path) as T;
}
