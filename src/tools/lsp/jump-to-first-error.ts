// jumpToFirstError: the first error of a file, or of every file the language servers know, with
// its source lines; for the "what is broken" first step. Diagnostics are for the files' content on
// disk now (src/lsp/language-server.ts).
import * as v from "valibot";
import { defineTool } from "../platform/define-tool.ts";
import { byPosition, diagnosticLine } from "../../services/diagnostics/diagnostic-lines.ts";
import { renderPlaces, SourceLines } from "./locations.ts";
import { toFileUri } from "../../lib/paths/file-uri.ts";

export default defineTool({
  name: "jumpToFirstError",
  title: "Jump to first error",
  description:
    "Finds the first compile or type error in a file, or across the files the language servers have checked, and shows it with its source lines.",
  searchHint: "first error type errors compile error what is broken jump to error problems",
  input: v.strictObject({
    file: v.optional(v.pipe(v.string(), v.minLength(1), v.description("Only this file (default: all known files)."))),
  }),
  annotations: { readOnlyHint: true },
  async handler(input, ctx) {
    const call = { signal: ctx.signal, onProgress: (message: string) => ctx.progress(0, { message }) };
    const checked = input.file === undefined ? await ctx.lsp.workspaceErrors(call) : [await ctx.lsp.diagnosticsFor(input.file, call)];
    const errors = checked.flatMap((f) => f.items.filter((d) => (d.severity ?? 1) === 1).map((d) => ({ file: f, d })));
    if (errors.length === 0) {
      const behind = checked.find((f) => !f.current);
      const stale =
        behind === undefined
          ? ""
          : behind.why === undefined
            ? " (a server published nothing in time for a file; call again to re-check)"
            : ` (${behind.relative} may be stale: ${behind.why} after a change on disk; call again to re-check)`;
      return input.file === undefined
        ? `No errors in the files the language servers have checked${stale}.`
        : `No errors in ${checked[0]?.relative ?? input.file}${stale}.`;
    }
    errors.sort((a, b) => (a.file.relative === b.file.relative ? byPosition(a.d, b.d) : a.file.relative < b.file.relative ? -1 : 1));
    const first = errors[0] as (typeof errors)[number];
    const context = await renderPlaces([{ uri: toFileUri(first.file.path), range: first.d.range }], {
      sources: new SourceLines(ctx),
      verbosity: "verbose",
    });
    const more =
      errors.length > 1
        ? `\n${errors.length - 1} more error${errors.length === 2 ? "" : "s"} in ${new Set(errors.map((e) => e.file.relative)).size} file(s).`
        : "";
    return `${diagnosticLine(first.file.relative, first.d)}\n${context.slice(1).join("\n")}${more}`;
  },
});
