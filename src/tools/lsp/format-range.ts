// formatRange: formats some lines of a file through its language server (textDocument/
// rangeFormatting), applied like any edit: atomic, with a dry run and the errors it changes.
import * as v from "valibot";
import type { TextEdit } from "vscode-languageserver-protocol";
import { ToolError } from "../../errors.ts";
import { defineTool } from "../platform/define-tool.ts";
import { openDocument } from "../../services/language/open-document.ts";
import { editFields } from "./edit-fields.ts";
import { renderOutcome } from "./edit-outcome.ts";
import { formattingOptionsFor } from "../../services/formatting/formatting-options.ts";
import { formatRangeViaVsCode } from "./vscode/format-range.ts";
import { EDIT_PROTOCOL_VERSION } from "../../extension/protocol-edit.ts";
import { includersFinder } from "../../services/language/includers.ts";

const METHOD = "textDocument/rangeFormatting";
const line = (what: string) => v.pipe(v.number(), v.integer(), v.minValue(1), v.description(what));

export default defineTool({
  name: "formatRange",
  title: "Format lines",
  description:
    "Formats a range of lines of a file through its language server and shows the diff; dryRun only shows it. For a whole file use formatDocument.",
  searchHint: "format range format selection lines reformat indent code style",
  input: v.strictObject({
    file: v.pipe(v.string(), v.minLength(1), v.description("Workspace-relative file.")),
    startLine: line("First line (1-based)."),
    endLine: line("Last line (inclusive)."),
    ...editFields,
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
  viaExtension: formatRangeViaVsCode,
  // Predicting the errors before writing (onlyIfNoNewErrors) takes the bridge's language server.
  viaExtensionWhen: (input) => !input.onlyIfNoNewErrors,
  extensionProtocol: EDIT_PROTOCOL_VERSION,
  async handler(input, ctx) {
    const doc = await openDocument(input.file, ctx, { method: METHOD });
    if (input.endLine < input.startLine || input.startLine > doc.lines.length) {
      throw new ToolError(
        "invalid_arguments",
        `lines ${input.startLine}-${input.endLine} are not a range of ${doc.relative} (${doc.lines.length} lines)`,
        { suggestion: `Pass startLine <= endLine within 1-${doc.lines.length}.` },
      );
    }
    const last = Math.min(input.endLine, doc.lines.length) - 1;
    const range = { start: { line: input.startLine - 1, character: 0 }, end: { line: last, character: (doc.lines[last] ?? "").length } };
    const edits =
      (await doc.request<TextEdit[] | null>(METHOD, { textDocument: { uri: doc.uri }, range, options: formattingOptionsFor(doc.lines) })) ??
      [];
    const outcome = await ctx.lsp.applyEdit(
      doc.server,
      { changes: { [doc.uri]: edits } },
      {
        dryRun: input.dryRun,
        onlyIfNoNewErrors: input.onlyIfNoNewErrors,
        expectDigest: input.preview,
        signal: ctx.signal,
        includersOf: includersFinder(ctx, doc.server),
      },
    );
    const span = `lines ${input.startLine}-${last + 1} of ${doc.relative}`;
    if (outcome.files.length === 0) return `${span} are already formatted (${doc.server.serverName}).`;
    return renderOutcome(outcome, { done: `Formatted ${span}`, would: `Would format ${span}`, server: doc.server.serverName });
  },
});
