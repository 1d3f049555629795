// captureScreenshot: there is no honest way to take one, and the tool says so instead of being left
// out (a model that looks for it learns why, and what to do instead). VS Code's extension API has no
// screenshot: VS Code captures its window only for its own chat, through the workbench (Electron's
// capturePage on the desktop, the browser's getDisplayMedia with the user picking a screen in
// code-server), and nothing of that reaches an extension or the bridge. A webview cannot capture
// either (its frame is not allowed display capture).
import * as v from "valibot";
import { ToolError } from "../../errors.ts";
import { defineTool } from "../platform/define-tool.ts";

export default defineTool({
  name: "captureScreenshot",
  title: "Screenshot of VS Code",
  description:
    "Says why no screenshot of the editor can be taken here (VS Code gives extensions no screen capture) and what to use instead.",
  searchHint: "screenshot capture screen image of the editor window picture",
  input: v.strictObject({}),
  annotations: { readOnlyHint: true },
  async handler(_input, ctx) {
    const ide = ctx.extension.status().info;
    const window =
      ide === undefined
        ? "No VS Code window is connected, and none would allow it"
        : `The connected ${ide.appName} ${ide.ideVersion} does not allow it`;
    throw new ToolError(
      "not_supported",
      `${window}: VS Code's extension API has no screen capture (VS Code captures its window only for its own chat), so neither the bridge nor its extension can take a screenshot. It would need a host that gives the bridge the window's pixels; neither desktop VS Code nor VS Code in a browser (code-server) does`,
      {
        suggestion:
          "Ask the user to attach a screenshot to the conversation. For the editor's state as text: getOpenEditors, getCurrentSelection, getDiagnostics, getBufferContent.",
      },
    );
  },
});
