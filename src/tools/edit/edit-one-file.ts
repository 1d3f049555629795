// The path every single-file edit takes: read the file as a document (refusing a stale version the
// caller names), compute the new text, write it through ctx.fs.commit (atomic, keeping the mode and
// line endings, refusing hard links and a file changed since the read), and report the diff, with
// the diagnostics the edit changed when a language server has the file.
import * as v from "valibot";
import type { ToolContext } from "../../capabilities/context.ts";
import { withDiagnosticsDelta } from "../../services/diagnostics/diagnostics-delta.ts";
import { editReport } from "../../services/documents/edit-report.ts";
import { documentWrite, readDocument, type ExpectedVersion, type TextDocument } from "../../services/documents/text-document.ts";

export const FilePathField = v.pipe(v.string(), v.minLength(1), v.description("Workspace-relative file."));

export const VersionFields = {
  expectedHash: v.optional(v.pipe(v.string(), v.description("Refuse if the content hash differs."))),
  expectedMtime: v.optional(v.pipe(v.number(), v.description("Refuse if mtime (epoch ms) differs."))),
};

export async function editOneFile(
  ctx: ToolContext,
  filePath: string,
  opts: { expected?: ExpectedVersion; compute: (doc: TextDocument) => string; write: boolean },
): Promise<string> {
  const doc = await readDocument(ctx, filePath, opts.expected);
  const after = opts.compute(doc);
  const write = documentWrite(doc, after);
  const changed = after !== doc.text;
  const notes =
    opts.write && changed ? await withDiagnosticsDelta(ctx, { paths: [doc.path], write: () => ctx.fs.commit([write]) }) : undefined;
  return editReport([{ label: doc.label, before: doc.text, after, data: write.data, notes: notes?.get(doc.path) ?? [] }], {
    written: opts.write,
  });
}
