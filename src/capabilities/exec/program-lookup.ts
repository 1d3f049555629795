// Where a program is found: for the Node tools a project pins (vitest, jest, tsc, eslint...), the
// workspace's own node_modules/.bin first, as `npx <tool>` or an npm script would; then PATH; then,
// for the checkers the bridge ships itself (pyright, TypeScript 7's compiler), its own copy, so a
// project that installs neither is still checked, by a version the bridge knows.
import type { BundledFile, LanguageServerLauncher } from "../../ports/lsp.ts";
import type { Runtime } from "../../ports/runtime.ts";
import { join } from "../../lib/paths/posix-path.ts";

/** Tools installed per project by npm; anything else (git, cargo, pytest) comes from PATH only. */
const PROJECT_BIN_TOOLS = new Set(["vitest", "jest", "mocha", "tsc", "tsgo", "eslint", "biome", "prettier", "pyright"]);

/** The bridge's own dependencies that provide a program, looked up last. */
const BUNDLED_PROGRAMS: Readonly<Record<string, BundledFile>> = {
  pyright: { package: "pyright", bin: "pyright" },
  // TypeScript 7's native compiler, the platform package the bridge's tsgo language server runs.
  tsgo: { package: "@typescript/typescript-{platform}-{arch}", path: "lib/tsc" },
};

export interface FoundProgram {
  path: string;
  /** Found in the workspace's node_modules/.bin. */
  projectBin: boolean;
  /** The bridge's own copy (BUNDLED_PROGRAMS). */
  bundled?: boolean;
}

export type ProgramLookupRuntime = Pick<Runtime, "fs" | "which"> & {
  /** Without it (a test's runtime), the bridge's own copies are not looked up. */
  readonly languageServers?: Pick<LanguageServerLauncher, "bundled">;
};

export async function findProgram(runtime: ProgramLookupRuntime, name: string, opts: { root: string }): Promise<FoundProgram | undefined> {
  const { root } = opts;
  if (PROJECT_BIN_TOOLS.has(name)) {
    const local = join(root, "node_modules", ".bin", name);
    const stat = await runtime.fs.stat(local).catch(() => undefined);
    if (stat?.isFile === true && (stat.mode & 0o111) !== 0) return { path: local, projectBin: true };
  }
  const path = await runtime.which(name);
  if (path !== undefined) return { path, projectBin: false };
  const shipped = BUNDLED_PROGRAMS[name];
  const bundled = shipped === undefined ? undefined : await runtime.languageServers?.bundled(shipped).catch(() => undefined);
  return bundled === undefined ? undefined : { path: bundled, projectBin: false, bundled: true };
}
