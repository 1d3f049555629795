// vscode-jsonrpc, loaded on the first language server rather than at start: it is CommonJS that
// Node parses for its exports when an ES module imports it (tens of ms on every start, for a bridge
// that may never start a server). require() is synchronous, so LanguageServerLauncher.start stays so.
import { createRequire } from "node:module";

type JsonRpc = typeof import("vscode-jsonrpc/node");

let loaded: JsonRpc | undefined;

export function jsonRpc(): JsonRpc {
  loaded ??= createRequire(import.meta.url)("vscode-jsonrpc/node") as JsonRpc;
  return loaded;
}
