// A file the VS Code tools act on: resolved through the jail, so VS Code is only ever asked about
// workspace files.
import type { ToolContext } from "../../capabilities/context.ts";

export async function editorFileFor(ctx: Pick<ToolContext, "fs">, given: string): Promise<{ path: string; relative: string }> {
  const path = await ctx.fs.resolve(given, { mustExist: true });
  return { path, relative: ctx.fs.relative(path) };
}
