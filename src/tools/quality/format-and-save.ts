// formatAndSave: formats a file and saves it. Headless this is formatDocument's write; with the
// VS Code extension it formats the editor's buffer (unsaved edits included) and saves it.
import * as v from "valibot";
import { defineTool } from "../platform/define-tool.ts";
import { formatInput } from "./format-document.ts";
import { formatFile } from "./format-file.ts";

export default defineTool({
  name: "formatAndSave",
  title: "Format and save",
  description:
    "Formats a file with the project's formatter (which runs the project's config code, e.g. .prettierrc.cjs) and saves it to disk, saying which lines changed.",
  searchHint: "format and save file prettier black gofmt rustfmt formatter save",
  input: v.strictObject(formatInput),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
  timeoutMs: 120_000,
  handler: (input, ctx) => formatFile(ctx, { file: input.file, formatter: input.formatter, write: true }),
});
