// Which LSP languageId a file is, by its name: the ids VS Code uses, so servers that key settings
// or behaviour on them (vscode-langservers-extracted) see what they expect.
import { basename } from "../lib/paths/posix-path.ts";

const BY_EXTENSION: Readonly<Record<string, string>> = {
  ts: "typescript",
  mts: "typescript",
  cts: "typescript",
  tsx: "typescriptreact",
  js: "javascript",
  mjs: "javascript",
  cjs: "javascript",
  jsx: "javascriptreact",
  py: "python",
  pyi: "python",
  sh: "shellscript",
  bash: "shellscript",
  yaml: "yaml",
  yml: "yaml",
  json: "json",
  jsonc: "jsonc",
  css: "css",
  scss: "scss",
  less: "less",
  html: "html",
  htm: "html",
  go: "go",
  c: "c",
  h: "c",
  cc: "cpp",
  cpp: "cpp",
  cxx: "cpp",
  hh: "cpp",
  hpp: "cpp",
  hxx: "cpp",
};

const BY_NAME: Readonly<Record<string, string>> = {
  ".bashrc": "shellscript",
  ".profile": "shellscript",
  "tsconfig.json": "jsonc",
  "jsconfig.json": "jsonc",
};

/** The languageId of a path, or undefined when no built-in language claims it. */
export function languageIdOf(path: string): string | undefined {
  const name = basename(path);
  const byName = BY_NAME[name];
  if (byName !== undefined) return byName;
  const dot = name.lastIndexOf(".");
  return dot <= 0 ? undefined : BY_EXTENSION[name.slice(dot + 1).toLowerCase()];
}
