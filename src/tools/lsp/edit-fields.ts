// The input every editing LSP tool shares: a dry run that only shows the diff and
// the errors it would introduce or fix, and a guard that writes only an edit introducing no error.
import * as v from "valibot";

export const editFields = {
  dryRun: v.optional(
    v.pipe(v.boolean(), v.description("Only show the diff and the errors it would introduce or fix; write nothing (default false).")),
    false,
  ),
  onlyIfNoNewErrors: v.optional(
    v.pipe(v.boolean(), v.description("Write the edit only if it introduces no new error (default false).")),
    false,
  ),
};
