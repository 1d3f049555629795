// getAIComments: the `// AI: ...` comments the user left in open files as instructions for Claude,
// as VS Code pushed them (at most 200, protocol.ts).
import * as v from "valibot";
import { MAX_AI_COMMENTS } from "../../extension/protocol.ts";
import { defineTool } from "../platform/define-tool.ts";
import { shownPath } from "./editor-files.ts";

export default defineTool({
  name: "getAIComments",
  title: "AI comments",
  description: "Lists the `AI: ...` comments the user wrote in files open in VS Code as instructions for Claude, with file and line.",
  searchHint: "AI comments instructions todo notes left for claude in code",
  input: v.strictObject({}),
  output: v.object({
    comments: v.array(v.object({ file: v.string(), line: v.pipe(v.number(), v.description("1-based.")), text: v.string() })),
    capped: v.pipe(v.boolean(), v.description(`True when the ${MAX_AI_COMMENTS}-comment cap left some out.`)),
  }),
  annotations: { readOnlyHint: true },
  async viaExtension(_input, ctx) {
    const files = ctx.extension.state.allComments();
    const comments = files.flatMap((f) =>
      f.comments.map((c) => ({ file: shownPath(ctx.fs.root, f.filePath), line: c.line + 1, text: c.text })),
    );
    return { comments, capped: comments.length >= MAX_AI_COMMENTS };
  },
});
