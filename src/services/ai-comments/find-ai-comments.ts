// The `AI: ...` comments left in the workspace's files as instructions for Claude, found without
// VS Code: rg narrows the files to those holding "AI:" (the built-in walk lists them all when rg
// is absent), and every candidate is read through the jail, so what is shown is the file's text
// and never a path rg reached outside. The comment forms are the extension's (extension/src/pushes.ts):
// `// AI:`, `# AI:`, `-- AI:`, `/* AI: */`, `<!-- AI: -->`.
import type { ToolContext } from "../../capabilities/context.ts";
import { listFiles } from "../search/file-list.ts";
import { alwaysSkippedGlobs, visibilityFlags } from "../search/rg-flags.ts";
import { runRg } from "../search/run-rg.ts";

export interface AiComment {
  /** Root-relative path. */
  file: string;
  /** 1-based. */
  line: number;
  text: string;
}

/** As many as VS Code's extension keeps (src/extension/protocol.ts, MAX_AI_COMMENTS). */
export const MAX_FOUND_COMMENTS = 200;
const AI_COMMENT = /(?:\/\/|#|--|\/\*|<!--)\s*AI:\s*(.+?)\s*(?:\*\/|-->)?\s*$/;
/** Bigger files are generated or data, not code someone left a note in. */
const MAX_FILE_BYTES = 2 * 1024 * 1024;
const VISIBLE = { includeHidden: false, gitignore: true };

/** The AI comments of the workspace in path and line order; `capped` when more were there. */
export async function findAiComments(ctx: ToolContext): Promise<{ comments: AiComment[]; capped: boolean }> {
  const candidates = (await ctx.probes.get("rg")).available
    ? await filesWithMarker(ctx)
    : (await listFiles(ctx, ".", { ...VISIBLE, builtIn: true })).files;
  const comments: AiComment[] = [];
  const reads = ctx.fs.readMany(candidates.sort(), { maxBytes: MAX_FILE_BYTES });
  const decoder = new TextDecoder();
  try {
    for await (const { path, bytes } of reads) {
      if (bytes === undefined || bytes.includes(0)) continue;
      const lines = decoder.decode(bytes).split("\n");
      for (const [i, line] of lines.entries()) {
        const text = AI_COMMENT.exec(line)?.[1];
        if (text === undefined) continue;
        if (comments.length === MAX_FOUND_COMMENTS) return { comments, capped: true };
        comments.push({ file: path, line: i + 1, text });
      }
    }
  } finally {
    await reads.return(undefined);
  }
  return { comments, capped: false };
}

/** The root-relative files rg finds "AI:" in, with the search tools' visibility rules. */
async function filesWithMarker(ctx: ToolContext): Promise<string[]> {
  const root = await ctx.fs.resolve(".");
  const result = await runRg(ctx, root, {
    args: ["--files-with-matches", "--null", "-F", ...visibilityFlags(VISIBLE), ...alwaysSkippedGlobs(), "-e", "AI:", "--", root],
    maxOutputBytes: 16 * 1024 * 1024,
  });
  const prefix = `${root === "/" ? "" : root}/`;
  return result.stdout
    .split("\0")
    .filter((path) => path.startsWith(prefix))
    .map((path) => path.slice(prefix.length));
}
