// searchAndReplace: a regex or literal replaced across the files of a directory (globs narrow it),
// with a dry run that shows counts per file and the diffs. The real run writes every changed file
// at once or none (ctx.fs.commit), each checked to be the version that was read. A file that changed
// or went away while it was read refuses the whole change, naming it: leaving it out would commit
// the rest without it. Only files that are not editable text (binary, too large, a hard link) are
// left out, and named. The regex runs on the bridge's linear-time engine, so a hostile pattern
// costs time proportional to the files.
import * as v from "valibot";
import { ToolError } from "../../errors.ts";
import { compilePathFilter } from "../../lib/ignore/visibility.ts";
import { compileRegex } from "../../lib/regex/index.ts";
import { defineTool } from "../platform/define-tool.ts";
import { withDiagnosticsDelta } from "../../services/diagnostics/diagnostics-delta.ts";
import { editReport } from "../../services/documents/edit-report.ts";
import { documentWrite, readDocument, type TextDocument } from "../../services/documents/text-document.ts";
import { listFiles } from "../../services/search/file-list.ts";
import { replaceMatches } from "./replace-matches.ts";
import { PatternFields, SearchScopeFields } from "./search-workspace.ts";

const MAX_CHANGED_FILES = 200;
const PROGRESS_EVERY_FILES = 100;
/** Files named in the answer as left out; the count says how many more. */
const MAX_SKIPPED_NAMED = 10;
/** A read that failed because the file was being changed: the change as a whole cannot be what was read. */
const CHANGED_WHILE_READ: ReadonlySet<string> = new Set(["file_changed", "file_not_found", "outside_workspace"]);

export default defineTool({
  name: "searchAndReplace",
  title: "Search and replace across files",
  description:
    "Replaces a regex or literal across files (globs narrow it), all files at once or none; dryRun previews counts per file and diffs. $1 / ${name} in the replacement.",
  searchHint: "search and replace across files regex rename identifier bulk refactor substitute",
  input: v.strictObject({
    ...PatternFields,
    replacement: v.pipe(v.string(), v.description("Replacement; $1 or ${name} insert groups, $$ a dollar.")),
    ...SearchScopeFields,
    dryRun: v.optional(v.pipe(v.boolean(), v.description("Only show what would change.")), false),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false },
  largeResult: true,
  timeoutMs: 120_000,
  async handler(input, ctx) {
    const regex = compileRegex(input.pattern, { literal: input.literal, caseInsensitive: !input.caseSensitive });
    const filter = compilePathFilter(input.include, input.exclude);
    const listed = await listFiles(ctx, input.path, { includeHidden: input.includeHidden, gitignore: !input.includeIgnored, filter });
    const prefix = ctx.fs.relative(listed.dir);
    const changed: { doc: TextDocument; after: string; count: number }[] = [];
    const skipped: string[] = [];
    for (const [i, rel] of listed.files.entries()) {
      if (ctx.signal.aborted)
        throw new ToolError("cancelled", "Cancelled; nothing was written", {
          suggestion: "Narrow the path or include globs and run it again.",
        });
      if ((i + 1) % PROGRESS_EVERY_FILES === 0)
        ctx.progress(i + 1, {
          total: listed.files.length,
          message: `${i + 1} of ${listed.files.length} files, ${changed.length} to change`,
        });
      const path = prefix === "" ? rel : `${prefix}/${rel}`;
      const doc = await readDocument(ctx, path).catch((err: unknown) => {
        if (err instanceof ToolError && CHANGED_WHILE_READ.has(err.code)) {
          // A listed file that is gone may have been listed through a directory swapped for a link
          // to outside: its name is not the workspace's to show.
          // One that now resolves outside was listed through such a swap too: the same, and never named.
          const what =
            err.code === "file_changed"
              ? `${path} changed (${err.message})`
              : `A file listed under ${prefix || "the workspace root"} went away or moved out of the workspace`;
          throw new ToolError("file_changed", `${what} while it was read; nothing was written`, {
            suggestion: "Run it again once nothing is writing the files, or leave that file out with exclude.",
          });
        }
        return undefined;
      });
      if (doc === undefined) {
        skipped.push(path);
        continue;
      }
      const { text, count } = replaceMatches(doc.text, regex, { replacement: input.replacement, literal: input.literal });
      if (count === 0 || text === doc.text) continue;
      changed.push({ doc, after: text, count });
      if (changed.length > MAX_CHANGED_FILES) {
        throw new ToolError("limit_reached", `More than ${MAX_CHANGED_FILES} files would change; nothing was written`, {
          suggestion: "Narrow it with path or include globs, and run it in parts.",
        });
      }
    }
    const total = changed.reduce((n, c) => n + c.count, 0);
    const writes = changed.map((c) => documentWrite(c.doc, c.after));
    const notes =
      !input.dryRun && writes.length > 0
        ? await withDiagnosticsDelta(ctx, { paths: writes.map((w) => w.path), write: () => ctx.fs.commit(writes) })
        : undefined;
    const verb = input.dryRun ? "Would replace" : "Replaced";
    const named =
      skipped.slice(0, MAX_SKIPPED_NAMED).join(", ") +
      (skipped.length > MAX_SKIPPED_NAMED ? `, +${skipped.length - MAX_SKIPPED_NAMED} more` : "");
    const skippedNote =
      skipped.length > 0 ? ` (${skipped.length} file${skipped.length === 1 ? "" : "s"} not text or not editable, left out: ${named})` : "";
    const head = `${verb} ${total} match${total === 1 ? "" : "es"} in ${changed.length} of ${listed.files.length} files${skippedNote}${input.dryRun ? "; nothing was written" : changed.length > 1 ? ", all files at once" : ""}.`;
    const counts = changed.map((c) => `${c.doc.label}: ${c.count}`);
    if (changed.length === 0) return head;
    const report = await editReport(
      changed.map((c, i) => ({
        label: c.doc.label,
        before: c.doc.text,
        after: c.after,
        data: writes[i]?.data ?? new Uint8Array(),
        notes: notes?.get(c.doc.path) ?? [],
      })),
      { written: !input.dryRun },
    );
    return [head, ...counts, "", report].join("\n");
  },
});
