// readClipboard: the text on the user's clipboard, capped; withheld when it looks like a credential
// (a password manager's copy), by the same rule that keeps secrets out of commands' environments.
import * as v from "valibot";
import { ToolError } from "../../errors.ts";
import { MAX_CLIPBOARD_CHARS } from "../../extension/protocol-ide.ts";
import { looksSecretValue } from "../../security/commands/secret-names.ts";
import { defineTool } from "../platform/define-tool.ts";

export default defineTool({
  name: "readClipboard",
  title: "Read clipboard",
  description:
    "Reads the text on the user's clipboard through VS Code (what they copied), up to 100,000 characters; a copied credential is withheld.",
  searchHint: "what did I copy: read the clipboard, paste copied text",
  input: v.strictObject({}),
  annotations: { readOnlyHint: true },
  extensionProtocol: "1.2.0",
  async viaExtension(_input, ctx) {
    const { text } = await ctx.extension.request("extension/readClipboard", {}, { signal: ctx.signal });
    if (text === "") return "The clipboard holds no text.";
    if (looksSecretValue(text))
      throw new ToolError(
        "permission_denied",
        "The clipboard holds what looks like a credential (a token or a URL with a password); not read",
        {
          suggestion: "Ask the user to paste what is needed without the credential.",
        },
      );
    const max = Math.min(MAX_CLIPBOARD_CHARS, Math.floor(ctx.settings.maxResultChars * 0.9));
    return text.length <= max ? text : `${text.slice(0, max)}\n[clipboard cut: ${text.length - max} more characters]`;
  },
});
