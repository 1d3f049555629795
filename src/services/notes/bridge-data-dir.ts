// The bridge's own directory in the workspace root, `.claude-ide-bridge/`: the trash of deleteFile,
// the plans and the handoff note. In the workspace, so it moves with the project and everything in
// it stays inside the jail (a rename into it never crosses a filesystem for files under the root);
// git-ignored by a `.gitignore` of its own that ignores everything in it; and never walked, listed
// or searched by the tools (src/lib/ignore/visibility.ts ALWAYS_SKIPPED), so trashed files do not show
// up in results.
import { ToolError } from "../../errors.ts";
import type { ToolContext } from "../../capabilities/context.ts";

export const DATA_DIR = ".claude-ide-bridge";

/** Makes `.claude-ide-bridge/<sub>` ("" for the directory itself) and its .gitignore; returns its root-relative path. */
export async function ensureDataDir(ctx: ToolContext, sub: string): Promise<string> {
  const dir = sub === "" ? DATA_DIR : `${DATA_DIR}/${sub}`;
  await ctx.fs.makeDirectory(dir, { parents: true });
  await ctx.fs
    .writeFile(`${DATA_DIR}/.gitignore`, "# Written by claude-ide-bridge: its trash, plans and notes are not part of the project.\n*\n", {
      createOnly: true,
    })
    .catch((err: unknown) => {
      if (!(err instanceof ToolError && err.code === "file_exists")) throw err;
    });
  return dir;
}

/** Whether a root-relative path lies in the bridge's directory. */
export function inDataDir(rel: string): boolean {
  return rel === DATA_DIR || rel.startsWith(`${DATA_DIR}/`);
}
