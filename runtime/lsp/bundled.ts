// LanguageServerLauncher.bundled: where a language server shipped as one of the bridge's own
// dependencies is installed (TypeScript's native server, pyright...). Resolved from this file, so
// it is the bridge's node_modules, never the workspace's.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { arch, platform } from "node:process";
import { dirname, join } from "node:path";
import { access, constants } from "node:fs/promises";
import type { BundledFile } from "../../src/ports/lsp.ts";

const require = createRequire(import.meta.url);

export async function bundledFile(file: BundledFile): Promise<string | undefined> {
  const name = file.package.replaceAll("{platform}", platform).replaceAll("{arch}", arch);
  let manifest: string;
  try {
    manifest = require.resolve(`${name}/package.json`);
  } catch {
    return undefined;
  }
  const dir = dirname(manifest);
  let relative = file.path?.replaceAll("{platform}", platform).replaceAll("{arch}", arch);
  if (file.bin !== undefined) {
    const pkg = JSON.parse(await readFile(manifest, "utf8")) as { bin?: string | Record<string, string> };
    relative = typeof pkg.bin === "string" ? pkg.bin : pkg.bin?.[file.bin];
  }
  if (relative === undefined) return undefined;
  const path = join(dir, relative);
  try {
    await access(path, constants.R_OK);
    return path;
  } catch {
    return undefined;
  }
}
