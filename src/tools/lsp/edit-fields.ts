// The input every editing LSP tool shares: a dry run that only shows the diff and
// the errors it would introduce or fix, and a guard that writes only an edit introducing no error.
import * as v from "valibot";

export const editFields = {
  dryRun: v.optional(v.pipe(v.boolean(), v.description("Preview: the diff and new errors; write nothing.")), false),
  onlyIfNoNewErrors: v.optional(v.pipe(v.boolean(), v.description("Write only if no new error.")), false),
};
