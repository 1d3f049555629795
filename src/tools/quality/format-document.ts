// formatDocument: formats a file with the project's formatter. Headless the file on disk is the
// document, so it is written (preview: true only shows the change). With the VS Code extension
// connected and no formatter named, VS Code's formatter for the file (what the user's editor runs)
// computes the edit and the bridge makes it through its jail; where VS Code has none, the bridge's formatter does.
import * as v from "valibot";
import { defineTool } from "../platform/define-tool.ts";
import { FORMATTER_NAMES } from "../../services/formatting/cli-formatters.ts";
import { formatFile } from "./format-file.ts";
import type { ToolContext } from "../../capabilities/context.ts";
import { ExtensionUnavailable } from "../../extension/extension-unavailable.ts";
import { EDIT_PROTOCOL_VERSION } from "../../extension/protocol-edit.ts";
import { commitVsCodeEdit, planVsCodeEdit } from "../../extension/vscode-edit.ts";
import { toFileUri } from "../../lib/paths/file-uri.ts";
import { diagnosticsDeltas } from "../../services/diagnostics/diagnostics-delta.ts";
import { editReport } from "../../services/documents/edit-report.ts";

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
  viaExtension: formatViaVsCode,
  // A formatter named is the project's CLI, which only the bridge runs.
  viaExtensionWhen: (input) => input.formatter === undefined,
  extensionProtocol: EDIT_PROTOCOL_VERSION,
  handler: (input, ctx) => formatFile(ctx, { file: input.file, formatter: input.formatter, write: input.preview !== true }),
});

async function formatViaVsCode(input: { file: string; preview?: boolean | undefined }, ctx: ToolContext): Promise<string> {
  const path = await ctx.fs.resolve(input.file);
  const file = ctx.fs.relative(path);
  const { edit, formatter } = await ctx.extension.request("extension/format", { uri: toFileUri(path) }, { signal: ctx.signal });
  // No formatter in VS Code for it: the route answers with the project's formatter or language server.
  if (!formatter) throw new ExtensionUnavailable("no_provider", `No formatter in VS Code formats ${file}`);
  const plan = await planVsCodeEdit(ctx.fs, edit, { what: "the formatting" });
  const f = plan.files[0];
  if (f === undefined) return `${file} is already formatted (VS Code).`;
  const change = { label: file, before: f.before, after: f.after, data: f.write.data };
  if (input.preview === true)
    return `${file} would change (VS Code's formatter; nothing written):\n${await editReport([change], { written: false })}`;
  const delta = (await diagnosticsDeltas(ctx, { paths: [path], write: () => commitVsCodeEdit(ctx.fs, plan) })).get(path);
  const report = await editReport([{ ...change, notes: delta?.lines ?? [] }], { written: true });
  const done = `Formatted ${file} with VS Code's formatter.`;
  if (delta === undefined || delta.newErrors === 0) return `${done}\n${report}`;
  return `WARNING: formatting added ${delta.newErrors} error(s) (listed below); a formatter should not change what the code means: fix them, or undo the change.\n${done}\n${report}`;
}
