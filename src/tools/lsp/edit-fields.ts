// The input every editing LSP tool shares: a dry run that only shows the diff and
// the errors it would introduce or fix, a guard that writes only an edit introducing no error, and
// the preview's digest, so what is written is exactly what was shown.
import * as v from "valibot";

export const editFields = {
  dryRun: v.optional(v.pipe(v.boolean(), v.description("Preview: the diff and new errors; write nothing.")), false),
  onlyIfNoNewErrors: v.optional(v.pipe(v.boolean(), v.description("Write only if no new error.")), false),
  preview: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^[0-9a-f]{8}$/),
      v.description("The digest a dry run printed: write exactly that edit, or nothing if the files or the server's answer changed."),
    ),
  ),
};
