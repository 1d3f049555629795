// Where a program is found: for the Node tools a project pins (vitest, jest, tsc, eslint...), the
// workspace's own node_modules/.bin first, as `npx <tool>` or an npm script would; then PATH.
import type { Runtime } from "../../ports/runtime.ts";
import { join } from "../../lib/paths/posix-path.ts";

/** Tools installed per project by npm; anything else (git, cargo, pytest) comes from PATH only. */
const PROJECT_BIN_TOOLS = new Set(["vitest", "jest", "mocha", "tsc", "eslint", "biome", "prettier", "pyright"]);

export interface FoundProgram {
  path: string;
  /** Found in the workspace's node_modules/.bin. */
  projectBin: boolean;
}

export async function findProgram(
  runtime: Pick<Runtime, "fs" | "which">,
  name: string,
  opts: { root: string },
): Promise<FoundProgram | undefined> {
  const { root } = opts;
  if (PROJECT_BIN_TOOLS.has(name)) {
    const local = join(root, "node_modules", ".bin", name);
    const stat = await runtime.fs.stat(local).catch(() => undefined);
    if (stat?.isFile === true && (stat.mode & 0o111) !== 0) return { path: local, projectBin: true };
  }
  const path = await runtime.which(name);
  return path === undefined ? undefined : { path, projectBin: false };
}
