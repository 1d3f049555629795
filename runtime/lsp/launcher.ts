// The Runtime's languageServers member on one runtime's spawn (runtime/node.ts, bun.ts, deno.ts).
import type { Child, SpawnOptions } from "../../src/ports/spawn.ts";
import type { LanguageServerLauncher } from "../../src/ports/lsp.ts";
import { bundledFile } from "./bundled.ts";
import { startLanguageServer } from "./connection.ts";

export function languageServers(spawn: (cmd: string, args: string[], opts: SpawnOptions) => Child): LanguageServerLauncher {
  return { start: (command, args, opts) => startLanguageServer(spawn, { command, args, ...opts }), bundled: bundledFile };
}
