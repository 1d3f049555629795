// formatRange through VS Code (vscode.executeFormatRangeProvider): the lines formatted as the
// user's editor would (its formatter extension and settings), the edit made by the bridge.
import type { ToolContext } from "../../../capabilities/context.ts";
import { ToolError } from "../../../errors.ts";
import { ExtensionUnavailable } from "../../../extension/extension-unavailable.ts";
import { toFileUri } from "../../../lib/paths/file-uri.ts";
import { splitLines } from "../../../lsp/positions.ts";
import { vsCodeEditAnswer } from "./edit-answer.ts";

interface FormatRangeInput {
  file: string;
  startLine: number;
  endLine: number;
  dryRun: boolean;
  preview?: string | undefined;
}

export async function formatRangeViaVsCode(input: FormatRangeInput, ctx: ToolContext): Promise<string> {
  const path = await ctx.fs.resolve(input.file);
  const relative = ctx.fs.relative(path);
  const lines = splitLines((await ctx.extension.request("extension/readDocument", { filePath: path }, { signal: ctx.signal })).text);
  if (input.endLine < input.startLine || input.startLine > lines.length)
    throw new ToolError(
      "invalid_arguments",
      `lines ${input.startLine}-${input.endLine} are not a range of ${relative} (${lines.length} lines)`,
      {
        suggestion: `Pass startLine <= endLine within 1-${lines.length}.`,
      },
    );
  const last = Math.min(input.endLine, lines.length) - 1;
  const range = { start: { line: input.startLine - 1, character: 0 }, end: { line: last, character: (lines[last] ?? "").length } };
  const { edit, formatter } = await ctx.extension.request("extension/format", { uri: toFileUri(path), range }, { signal: ctx.signal });
  // No formatter in VS Code for it: the route answers with the bridge's language server.
  if (!formatter) throw new ExtensionUnavailable("no_provider", `No formatter in VS Code formats a range of ${relative}`);
  const span = `lines ${input.startLine}-${last + 1} of ${relative}`;
  return vsCodeEditAnswer(ctx, edit, {
    what: "the formatting",
    done: `Formatted ${span}`,
    would: `Would format ${span}`,
    none: `${span} are already formatted (VS Code).`,
    dryRun: input.dryRun,
    expectDigest: input.preview,
  });
}
