// Claude Code's IDE link: getOpenEditors (protocol.md A4).
import * as v from "valibot";
import { defineTool } from "../../platform/define-tool.ts";
import { ideJson } from "../editor-files.ts";

export default defineTool({
  name: "getOpenEditors",
  description: "Lists the editor tabs open in VS Code with their file, language, dirty and active state.",
  searchHint: "open editors tabs files",
  input: v.strictObject({}),
  annotations: { readOnlyHint: true },
  async viaExtension(_input, ctx) {
    return ideJson(await ctx.extension.request("extension/getOpenEditors", {}, { signal: ctx.signal }));
  },
});
