// Claude Code's IDE link: getWorkspaceFolders (protocol.md A4): VS Code's folders (every root of a
// multi-root workspace) when it is connected, else the bridge's.
import * as v from "valibot";
import { toFileUri } from "../../../lib/paths/file-uri.ts";
import { basename } from "../../../lib/paths/posix-path.ts";
import { defineTool } from "../../platform/define-tool.ts";
import { ideJson } from "../editor-files.ts";

export default defineTool({
  name: "getWorkspaceFolders",
  description: "Lists the workspace folders (name, URI, path) and the root path.",
  searchHint: "workspace folders root",
  input: v.strictObject({}),
  annotations: { readOnlyHint: true },
  async viaExtension(_input, ctx) {
    const { folders } = await ctx.extension.request("extension/getWorkspaceFolders", {}, { signal: ctx.signal });
    return ideJson({ success: true, folders, rootPath: folders[0]?.path ?? ctx.fs.root });
  },
  async handler(_input, ctx) {
    const folders = ctx.fs.folders.map((path) => ({ name: basename(path) || path, uri: toFileUri(path), path }));
    return ideJson({ success: true, folders, rootPath: ctx.fs.root });
  },
});
