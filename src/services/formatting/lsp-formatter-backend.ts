// formatDocument's language-server backend, behind the formatter CLIs
// (src/tools/quality/format-file.ts): the project's own formatter keeps the last word on style, and
// a file no CLI formats is formatted by its language server (textDocument/formatting), computed on
// exactly the text the caller read.
import type { TextEdit } from "vscode-languageserver-protocol";
import { ToolError } from "../../errors.ts";
import { applyTextEdits } from "../../lsp/text-edits.ts";
import type { FormatterBackend } from "./formatter-backend.ts";
import { openDocument } from "../language/open-document.ts";
import { formattingOptionsFor } from "./formatting-options.ts";

const METHOD = "textDocument/formatting";

export const lspFormatterBackend: FormatterBackend = {
  name: "language server",
  async handles(ctx, file) {
    if (!(await ctx.lsp.handles(file))) return false;
    return openDocument(file, ctx, { method: METHOD }).then(
      () => true,
      (err: unknown) => {
        if (err instanceof ToolError && (err.code === "not_supported" || err.code === "no_language_server")) return false;
        throw err;
      },
    );
  },
  async format(ctx, file, text) {
    const doc = await openDocument(file, ctx, { method: METHOD });
    if (doc.text !== text)
      throw new ToolError("file_changed", `${doc.relative} changed while it was being formatted`, { suggestion: "Format it again." });
    const edits =
      (await doc.request<TextEdit[] | null>(METHOD, { textDocument: { uri: doc.uri }, options: formattingOptionsFor(doc.lines) })) ?? [];
    return applyTextEdits(doc.text, edits, { file: doc.relative });
  },
};
