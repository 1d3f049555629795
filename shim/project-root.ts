// The project root for a bridge the shim starts (src/cli/project-root.ts), read with node:fs.
import { readdir } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname } from "node:path";
import { findProjectRoot } from "../src/cli/project-root.ts";

export function projectRootOf(dir: string): Promise<string> {
  return findProjectRoot(dir, { list: (d) => readdir(d).catch(() => []), parent: dirname, home: homedir() });
}
