// Claude Code's IDE link: openDiff (protocol.md A5). Shows the proposed contents beside the file in
// a VS Code diff and holds the answer until the user accepts (FILE_SAVED and the final text, their
// edits included; Claude Code writes the file itself) or rejects (DIFF_REJECTED and the tab name).
// A new diff for the same tab, the end of this call, or VS Code going away rejects it.
import * as v from "valibot";
import { defineTool, type ContentBlock } from "../../platform/define-tool.ts";
import { editorFile } from "../editor-files.ts";

/** No timeout applies: the user takes as long as they take. Past a day Claude Code has long given up. */
const A_DAY_MS = 24 * 60 * 60 * 1000;

export default defineTool({
  name: "openDiff",
  description: "Shows proposed file contents as a diff in the editor and waits until the user accepts or rejects it.",
  searchHint: "diff review proposed change accept reject",
  input: v.strictObject({ old_file_path: v.string(), new_file_path: v.string(), new_file_contents: v.string(), tab_name: v.string() }),
  annotations: { readOnlyHint: true },
  timeoutMs: A_DAY_MS,
  async viaExtension(input, ctx) {
    const oldFile = await editorFile(ctx, input.old_file_path, { mustExist: false });
    const newFile = await editorFile(ctx, input.new_file_path, { mustExist: false });
    const answer = await ctx.extension.openDiff(
      { oldFilePath: oldFile.path, newFilePath: newFile.path, newContents: input.new_file_contents, tabName: input.tab_name },
      { owner: ctx.session, signal: ctx.signal },
    );
    const [first, second] = answer.outcome === "accepted" ? ["FILE_SAVED", answer.contents] : ["DIFF_REJECTED", input.tab_name];
    const content: ContentBlock[] = [
      { type: "text", text: first },
      { type: "text", text: second },
    ];
    return { content };
  },
});
