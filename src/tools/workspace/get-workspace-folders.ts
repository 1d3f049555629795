// getWorkspaceFolders: the same answer shape as Claude Code's built-in IDE tool, so a client that
// knows one knows the other (reference/protocol.md, A4). With VS Code connected: its folders, every
// root of a multi-root workspace; the root relative paths resolve against stays the bridge's.
import * as v from "valibot";
import { toFileUri } from "../../lib/paths/file-uri.ts";
import { basename } from "../../lib/paths/posix-path.ts";
import { defineTool } from "../platform/define-tool.ts";

const WorkspaceFolders = v.object({
  success: v.literal(true),
  folders: v.array(
    v.object({
      name: v.pipe(v.string(), v.description("Folder name (its last path component).")),
      uri: v.pipe(v.string(), v.description("file:// URI, percent-encoded.")),
      path: v.pipe(v.string(), v.description("Real absolute path.")),
    }),
  ),
  rootPath: v.pipe(v.string(), v.description("Real absolute path of the workspace root; relative paths resolve against it.")),
});

export default defineTool({
  name: "getWorkspaceFolders",
  title: "Workspace folders",
  description:
    "Lists the workspace folders (name, file URI, absolute path) and the root that relative paths resolve against. Use it to learn where the project lives.",
  searchHint: "workspace folders root directory project path where",
  input: v.strictObject({}),
  output: WorkspaceFolders,
  annotations: { readOnlyHint: true },
  async viaExtension(_input, ctx) {
    const { folders } = await ctx.extension.request("extension/getWorkspaceFolders", {}, { signal: ctx.signal });
    return { success: true as const, folders, rootPath: ctx.fs.root };
  },
  async handler(_input, ctx) {
    const folders = ctx.fs.folders.map((path) => ({ name: basename(path) || path, uri: toFileUri(path), path }));
    return { success: true as const, folders, rootPath: ctx.fs.root };
  },
});
