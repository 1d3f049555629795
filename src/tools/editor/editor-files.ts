// Paths the editor tools take (relative, absolute, or a file:// URI, as Claude Code and models give
// them), resolved through the jail into what VS Code is asked about: an absolute path and its URI.
import type { ToolContext } from "../../capabilities/context.ts";
import { toFileUri } from "../../lib/paths/file-uri.ts";

export interface EditorFile {
  /** Real absolute path, inside the workspace. */
  path: string;
  uri: string;
  /** Root-relative, for messages. */
  relative: string;
}

export async function editorFile(ctx: Pick<ToolContext, "fs">, given: string, opts: { mustExist: boolean }): Promise<EditorFile> {
  const path = await ctx.fs.resolve(given, { mustExist: opts.mustExist });
  return { path, uri: toFileUri(path), relative: ctx.fs.relative(path) };
}

/** The IDE link's answers are JSON in one text block (protocol.md A4). */
export function ideJson(value: unknown): string {
  return JSON.stringify(value);
}

/** A path VS Code gave, as the bridge's tools show paths: relative to the root when inside it. */
export function shownPath(root: string, path: string): string {
  return path.startsWith(`${root}/`) ? path.slice(root.length + 1) : path;
}
