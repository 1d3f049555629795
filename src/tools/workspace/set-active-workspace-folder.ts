// setActiveWorkspaceFolder: in a multi-root workspace (--workspace-folder), which folder this
// session's relative paths, default search roots, working directories and git repository start in
// (src/capabilities/active-folder.ts). It only picks among the jail's folders: a folder the bridge
// was not given stays outside, and the answer says how to add it.
import * as v from "valibot";
import { ToolError } from "../../errors.ts";
import { basename } from "../../lib/paths/posix-path.ts";
import type { WorkspacePath } from "../../security/jail/workspace-path.ts";
import type { WorkspaceFs } from "../../workspace/workspace-fs.ts";
import { defineTool } from "../platform/define-tool.ts";

const ActiveFolder = v.object({
  activeFolder: v.pipe(v.string(), v.description("Real absolute path relative paths now resolve against.")),
  previous: v.pipe(v.string(), v.description("The folder they resolved against before.")),
  folders: v.pipe(v.array(v.string()), v.description("Every workspace folder, the active one first.")),
});

export default defineTool({
  name: "setActiveWorkspaceFolder",
  title: "Set active workspace folder",
  description:
    "Picks the folder of a multi-root workspace this session's relative paths resolve against (reads, searches' default root, git's repository, commands' directory), by path or name.",
  searchHint: "switch active workspace folder multi-root change root directory project",
  input: v.strictObject({
    folder: v.pipe(
      v.string(),
      v.minLength(1),
      v.description("A workspace folder: its absolute path, a path relative to the active one, or its name."),
    ),
  }),
  output: ActiveFolder,
  // It changes nothing on disk, only where this session's later calls start.
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
  async handler(input, ctx) {
    const { activeFolders } = ctx;
    if (activeFolders === undefined) {
      throw new ToolError("not_supported", "This bridge keeps no per-session folder choice", {
        suggestion: "Use absolute paths to reach another workspace folder.",
      });
    }
    const folder = await folderNamed(ctx.fs, input.folder);
    activeFolders.choose(ctx.session, folder);
    return { activeFolder: folder, previous: ctx.fs.root, folders: [folder, ...ctx.fs.folders.filter((f) => f !== folder)] };
  },
});

async function folderNamed(fs: WorkspaceFs, name: string): Promise<WorkspacePath> {
  const byName = fs.folders.filter((f) => basename(f) === name);
  if (byName.length === 1 && !name.includes("/")) return byName[0] as WorkspacePath;
  const notAFolder = (what: string) =>
    new ToolError("invalid_arguments", `${name} ${what}`, {
      suggestion:
        fs.folders.length === 1
          ? `This workspace has one folder, ${fs.root}; to work in another, ask the user to restart the bridge with --workspace-folder <dir>, or start a bridge there with spawnWorkspace.`
          : `Pick one of ${fs.folders.join(", ")}; another folder needs the bridge restarted with --workspace-folder <dir>.`,
    });
  const path = await fs.resolve(name).catch((err: unknown) => {
    if (err instanceof ToolError && (err.code === "outside_workspace" || err.code === "file_not_found"))
      throw notAFolder("is not a workspace folder");
    throw err;
  });
  const folder = fs.folders.find((f) => f === path);
  if (folder === undefined) throw notAFolder(`is inside the workspace but is not one of its folders (${fs.folders.length})`);
  return folder;
}
