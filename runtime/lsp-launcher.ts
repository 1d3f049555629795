// The Runtime's languageServers member on one runtime's spawn (runtime/node.ts, bun.ts, deno.ts).
import type { Child, LanguageServerLauncher, SpawnOptions } from "../src/runtime.ts";
import { bundledFile } from "./lsp-bundled.ts";
import { startLanguageServer } from "./lsp-connection.ts";

export function languageServers(spawn: (cmd: string, args: string[], opts: SpawnOptions) => Child): LanguageServerLauncher {
  return { start: (command, args, opts) => startLanguageServer(spawn, command, args, opts), bundled: bundledFile };
}
