// getWorkspaceSettings: VS Code's effective settings of a section (user, workspace and defaults
// merged), and which keys this workspace sets itself.
import * as v from "valibot";
import { tail } from "../../services/terminal/vscode-terminals.ts";
import { defineTool } from "../platform/define-tool.ts";

export default defineTool({
  name: "getWorkspaceSettings",
  title: "VS Code settings",
  description:
    "Reads VS Code's effective settings of a section (e.g. editor, typescript) as JSON, and which keys the workspace itself sets.",
  searchHint: "vscode settings configuration settings.json editor preferences read",
  input: v.strictObject({
    section: v.optional(
      v.pipe(v.string(), v.minLength(1), v.maxLength(200), v.description('e.g. "editor" or "editor.tabSize"; default all (large).')),
    ),
  }),
  annotations: { readOnlyHint: true },
  extensionProtocol: "1.2.0",
  async viaExtension(input, ctx) {
    const result = await ctx.extension.request("extension/getSettings", input.section === undefined ? {} : { section: input.section }, {
      signal: ctx.signal,
    });
    const set =
      result.workspaceKeys.length > 0 ? `set in this workspace: ${result.workspaceKeys.join(", ")}` : "none set in this workspace";
    return `VS Code settings${input.section === undefined ? "" : ` of ${input.section}`} (effective; ${set}):\n${tail(result.json, Math.floor(ctx.settings.maxResultChars * 0.9))}`;
  },
});
