// What a server is started with besides its command: its initializationOptions, with the bridge's
// own tsserver.js for typescript-language-server when the project has no TypeScript. Shared by the
// server pool and doctor's probe (src/cli/doctor-lsp.ts), so both start a server the same way.
import type { Fs } from "../ports/fs.ts";
import type { LanguageServerLauncher } from "../ports/lsp.ts";
import type { ServerSpec } from "./server-specs.ts";

interface LaunchOptionDeps {
  launcher: Pick<LanguageServerLauncher, "bundled">;
  fs: Pick<Fs, "lstat">;
}

export async function initializationOptionsFor(spec: ServerSpec, root: string, deps: LaunchOptionDeps): Promise<unknown> {
  const options = spec.initializationOptions;
  if (spec.tsserver === undefined) return options;
  const own = await deps.fs.lstat(`${root}/node_modules/typescript/lib/tsserver.js`).then(
    () => true,
    () => false,
  );
  if (own) return options;
  const path = await deps.launcher.bundled(spec.tsserver);
  return path === undefined ? options : { ...(options as object | undefined), tsserver: { path } };
}
