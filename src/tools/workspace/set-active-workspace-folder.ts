// setActiveWorkspaceFolder: which folder this session's relative paths, default search roots, working
// directories and git repository start in (src/capabilities/active-folder.ts). It picks among:
//   - the jail's folders (--workspace, --workspace-folder), for every session;
//   - the folders the client names as MCP roots (roots/list), and those of the VS Code window the
//     extension reports, for a session the bridge knows is the user's own program on this machine
//     (WebSocket, or HTTP while remote access is off). A remote HTTP client (OAuth) is not the local
//     user: it picks among the jail's folders alone. The model cannot add a folder either way.
// A folder from the client or the extension outside the jail joins this session's view through a
// jail of its own, never one holding the home directory; a folder the bridge was not offered stays
// outside, and the answer says how to add it.
import * as v from "valibot";
import type { SelectableFolder } from "../../capabilities/active-folder.ts";
import type { ToolContext } from "../../capabilities/context.ts";
import { ToolError } from "../../errors.ts";
import { fromFileUri } from "../../lib/paths/file-uri.ts";
import { basename, isAbsolute, normalize } from "../../lib/paths/posix-path.ts";
import { defineTool } from "../platform/define-tool.ts";

const ActiveFolder = v.object({
  activeFolder: v.pipe(v.string(), v.description("Real absolute path relative paths now resolve against.")),
  from: v.pipe(
    v.picklist(["workspace", "client", "extension"]),
    v.description("Who named it: the bridge's --workspace-folder, the client's MCP roots, or the VS Code window."),
  ),
  previous: v.pipe(v.string(), v.description("The folder they resolved against before.")),
  folders: v.pipe(v.array(v.string()), v.description("Every folder this session may pick, the active one first.")),
});

export default defineTool({
  name: "setActiveWorkspaceFolder",
  title: "Set active workspace folder",
  description:
    "Picks the folder this session's relative paths, searches, git and commands start in: a workspace folder, or one the client's MCP roots or VS Code name; by path or name.",
  searchHint: "switch active workspace folder multi-root change root directory project roots",
  input: v.strictObject({
    folder: v.pipe(
      v.string(),
      v.minLength(1),
      v.description("A folder: its absolute path or file URI, a path relative to the active one, or its name."),
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
    const extensionFolders = ctx.extension.connected ? ctx.extension.state.folders.map((f) => f.path) : [];
    const selectable = await activeFolders.selectable(ctx.session, extensionFolders);
    const folder = await folderNamed(ctx, input.folder, selectable);
    const folders = await activeFolders.choose(ctx.session, folder.path, { extensionFolders });
    const rest = selectable.map((f) => f.path).filter((p) => !folders.includes(p));
    return { activeFolder: folder.path, from: folder.from, previous: ctx.fs.root, folders: [...folders, ...rest] };
  },
});

async function folderNamed(ctx: ToolContext, name: string, selectable: readonly SelectableFolder[]): Promise<SelectableFolder> {
  const byName = selectable.filter((f) => basename(f.path) === name);
  if (byName.length === 1 && !name.includes("/")) return byName[0] as SelectableFolder;
  const spelled = /^file:/i.test(name) ? fromFileUri(name) : isAbsolute(name) ? normalize(name) : undefined;
  const direct = selectable.find((f) => f.path === spelled);
  if (direct !== undefined) return direct;
  const notAFolder = (what: string) =>
    new ToolError("invalid_arguments", `${name} ${what}`, {
      suggestion:
        selectable.length === 1
          ? `This session has one folder, ${ctx.fs.root}; to work in another, ask the user to add it to the client (Claude Code: /add-dir), restart the bridge with --workspace-folder <dir>, or start a bridge there with spawnWorkspace.`
          : `Pick one of ${selectable.map((f) => f.path).join(", ")}; another folder needs the client to name it as a root (Claude Code: /add-dir) or the bridge restarted with --workspace-folder <dir>.`,
    });
  // A path inside the view, relative or spelled through a symlink: its real path is what counts.
  const path = await ctx.fs.resolve(name).catch((err: unknown) => {
    if (err instanceof ToolError && (err.code === "outside_workspace" || err.code === "file_not_found"))
      throw notAFolder("is not a folder this session may pick");
    throw err;
  });
  const folder = selectable.find((f) => f.path === path);
  if (folder === undefined) throw notAFolder(`is inside the workspace but is not one of its folders (${selectable.length})`);
  return folder;
}
