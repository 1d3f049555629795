// formatDocument: formats a file with the project's formatter. Headless the file on disk is the
// document, so it is written (preview: true only shows the change); with the VS Code extension
// connected, formatting the open editor instead is a viaExtension handler's job.
import * as v from "valibot";
import { defineTool } from "../platform/define-tool.ts";
import { FORMATTER_NAMES } from "../../services/formatting/cli-formatters.ts";
import { formatFile } from "./format-file.ts";

export const formatInput = {
  file: v.pipe(v.string(), v.description("Workspace-relative file.")),
  formatter: v.optional(v.pipe(v.picklist(FORMATTER_NAMES), v.description("Formatter to use."))),
};

export default defineTool({
  name: "formatDocument",
  title: "Format document",
  description:
    "Formats a file with its formatter (prettier, biome, black, ruff, gofmt, rustfmt) or language server, saying which lines changed; a preview too runs the project's formatter config (code).",
  searchHint: "format or reformat this code, a file or document: prettier black gofmt rustfmt biome code style formatter",
  input: v.strictObject({
    ...formatInput,
    preview: v.optional(v.pipe(v.boolean(), v.description("Only show what would change."))),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
  timeoutMs: 120_000,
  handler: (input, ctx) => formatFile(ctx, { file: input.file, formatter: input.formatter, write: input.preview !== true }),
});
