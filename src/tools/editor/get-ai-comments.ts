// getAIComments: the `// AI: ...` comments the user left in the code as instructions for Claude:
// with VS Code, those of its open files as the extension pushed them (at most 200, protocol.ts);
// without it, found in every file of the workspace by search (src/services/ai-comments/).
import * as v from "valibot";
import { MAX_AI_COMMENTS } from "../../extension/protocol.ts";
import { findAiComments } from "../../services/ai-comments/find-ai-comments.ts";
import { defineTool } from "../platform/define-tool.ts";
import { shownPath } from "./editor-files.ts";

export default defineTool({
  name: "getAIComments",
  title: "AI comments",
  description:
    "Lists the `AI: ...` comments the user wrote in the code as instructions for Claude, with file and line: those of files open in VS Code, or without it every file's.",
  searchHint: "AI comments instructions todo notes left for claude in code",
  input: v.strictObject({}),
  output: v.object({
    comments: v.array(v.object({ file: v.string(), line: v.pipe(v.number(), v.description("1-based.")), text: v.string() })),
    capped: v.pipe(v.boolean(), v.description(`True when the ${MAX_AI_COMMENTS}-comment cap left some out.`)),
  }),
  annotations: { readOnlyHint: true },
  requires: { optionalProbes: ["rg"] },
  async viaExtension(_input, ctx) {
    const files = ctx.extension.state.allComments();
    const comments = files.flatMap((f) =>
      f.comments.map((c) => ({ file: shownPath(ctx.fs.root, f.filePath), line: c.line + 1, text: c.text })),
    );
    return { comments, capped: comments.length >= MAX_AI_COMMENTS };
  },
  handler: (_input, ctx) => findAiComments(ctx),
});
