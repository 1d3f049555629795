// writeClipboard: puts text on the user's clipboard through VS Code, for them to paste.
import * as v from "valibot";
import { MAX_CLIPBOARD_CHARS } from "../../extension/protocol-ide.ts";
import { defineTool } from "../platform/define-tool.ts";

export default defineTool({
  name: "writeClipboard",
  title: "Write clipboard",
  description: "Puts text on the user's clipboard through VS Code, replacing what was there, for them to paste (up to 100,000 characters).",
  searchHint: "copy to clipboard write clipboard text",
  input: v.strictObject({
    text: v.pipe(v.string(), v.maxLength(MAX_CLIPBOARD_CHARS), v.description("Text to copy.")),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false },
  extensionProtocol: "1.2.0",
  async viaExtension(input, ctx) {
    await ctx.extension.request("extension/writeClipboard", { text: input.text }, { signal: ctx.signal });
    return `Copied ${input.text.length} characters to the clipboard.`;
  },
});
