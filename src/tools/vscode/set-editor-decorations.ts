// setEditorDecorations: marks lines of a file in VS Code (a review's findings, a failing test's
// lines) with a colour, a hover message and text after the line; setting an id again replaces it.
// They go when the session ends (decoration-state.ts) or the bridge disconnects.
import * as v from "valibot";
import { ToolError } from "../../errors.ts";
import { editorFileFor } from "./vscode-files.ts";
import { defineTool } from "../platform/define-tool.ts";
import { DECORATIONS, decorationKey } from "./decoration-state.ts";

const line = v.pipe(v.number(), v.integer(), v.minValue(1));

export default defineTool({
  name: "setEditorDecorations",
  title: "Decorate editor lines",
  description:
    "Marks lines of a file in VS Code with a colour (info, warning, error, highlight), a hover message and text after the line; an id set again is replaced.",
  searchHint: "decorate highlight lines editor annotate review marks gutter hover message",
  input: v.strictObject({
    file: v.pipe(v.string(), v.minLength(1), v.description("Workspace-relative file.")),
    id: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(100), v.description('Name of this set (default "default").'))),
    decorations: v.pipe(
      v.array(
        v.strictObject({
          line: v.pipe(line, v.description("1-based first line.")),
          endLine: v.optional(v.pipe(line, v.description("Last line (default: line)."))),
          style: v.optional(v.pipe(v.picklist(["info", "warning", "error", "highlight"]), v.description("Default info."))),
          message: v.optional(v.pipe(v.string(), v.maxLength(2000), v.description("Shown on hover (markdown)."))),
          after: v.optional(v.pipe(v.string(), v.maxLength(200), v.description("Shown after the line's end."))),
        }),
      ),
      v.minLength(1),
      v.maxLength(500),
      v.description("The lines to mark."),
    ),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
  extensionProtocol: "1.2.0",
  async viaExtension(input, ctx) {
    const file = await editorFileFor(ctx, input.file);
    const id = input.id ?? "default";
    for (const d of input.decorations)
      if (d.endLine !== undefined && d.endLine < d.line)
        throw new ToolError("invalid_arguments", `endLine ${d.endLine} is before line ${d.line}`, {
          suggestion: "Give endLine at or after line.",
        });
    const result = await ctx.extension.request(
      "extension/setDecorations",
      {
        id: decorationKey(ctx.session, id),
        filePath: file.path,
        decorations: input.decorations.map((d) => ({
          startLine: d.line - 1,
          endLine: (d.endLine ?? d.line) - 1,
          style: d.style ?? "info",
          ...(d.message === undefined ? {} : { hoverMessage: d.message }),
          ...(d.after === undefined ? {} : { after: d.after }),
        })),
      },
      { signal: ctx.signal },
    );
    ctx.state(DECORATIONS).add(ctx.session, id, ctx.extension);
    const shown = result.visible ? "shown now" : "shown when the file is opened (openFile shows it)";
    return `Set ${result.applied} decoration${result.applied === 1 ? "" : "s"} "${id}" on ${file.relative}, ${shown}; cleared with clearEditorDecorations or when this session ends.`;
  },
});
