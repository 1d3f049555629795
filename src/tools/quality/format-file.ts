// What formatDocument and formatAndSave share: read the file through the jail, get the formatted
// text from the first backend that handles it, write it back only if the file did not change in
// the meantime, and say what changed (the changed line range; the lines themselves in a preview),
// with the diagnostics the write changed when a running language server has the file: a formatter
// should never add an error, and when one does the answer says so first.
import { ToolError } from "../../errors.ts";
import { readProjectFacts } from "../../services/diagnostics/project-facts.ts";
import type { ToolContext } from "../../capabilities/context.ts";
import { diagnosticsDeltas } from "../../services/diagnostics/diagnostics-delta.ts";
import { cliFormatterBackend } from "../../services/formatting/cli-formatters.ts";
import type { FormatterBackend } from "../../services/formatting/formatter-backend.ts";
import { lspFormatterBackend } from "../../services/formatting/lsp-formatter-backend.ts";

/** Asked in order: the project's formatter CLI, then the file's language server. */
const FORMATTER_BACKENDS: readonly FormatterBackend[] = [cliFormatterBackend(), lspFormatterBackend];

const MAX_FORMAT_BYTES = 2 * 1024 * 1024;
const PREVIEW_LINES = 200;

interface FormatRequest {
  file: string;
  formatter?: string | undefined;
  /** Write the result (false: only show what would change). */
  write: boolean;
}

export async function formatFile(ctx: ToolContext, req: FormatRequest): Promise<string> {
  const file = ctx.fs.relative(await ctx.fs.resolve(req.file));
  const original = await ctx.fs.readText(file, { maxBytes: MAX_FORMAT_BYTES });
  const project = await readProjectFacts(ctx);
  const backends = req.formatter === undefined ? FORMATTER_BACKENDS : [cliFormatterBackend(req.formatter)];
  let backend: FormatterBackend | undefined;
  // The first that handles it; later ones are not asked (a language server would be started for nothing).
  for (const candidate of backends) if (backend === undefined && (await candidate.handles(ctx, file, project))) backend = candidate;
  if (backend === undefined) {
    throw new ToolError("not_detected", `No formatter handles ${file}${req.formatter === undefined ? "" : ` with ${req.formatter}`}`, {
      suggestion:
        "Install the project's formatter (prettier, biome, black, ruff, gofmt, rustfmt) where the bridge finds it (node_modules/.bin or PATH).",
    });
  }
  const formatted = await backend.format(ctx, file, original, project);
  if (formatted === original) return `${file} is already formatted (${backend.name}).`;
  const change = changedRange(original, formatted);
  if (!req.write) return `${file} would change (${backend.name}): ${change.summary}\n\n${change.preview}`;
  // The formatter worked on what was read; an edit made meanwhile must not be overwritten.
  if ((await ctx.fs.readText(file, { maxBytes: MAX_FORMAT_BYTES })) !== original) {
    throw new ToolError("file_changed", `${file} changed while it was being formatted`, { suggestion: "Format it again." });
  }
  const path = await ctx.fs.resolve(file);
  const deltas = await diagnosticsDeltas(ctx, {
    paths: [path],
    write: async () => {
      await ctx.fs.writeFile(file, formatted);
    },
  });
  const delta = deltas.get(path);
  const done = `Formatted ${file} with ${backend.name}: ${change.summary}`;
  if (delta === undefined) return done;
  if (delta.newErrors === 0) return [done, ...delta.lines].join("\n");
  const errors = `${delta.newErrors} error${delta.newErrors === 1 ? "" : "s"}`;
  const warning = `WARNING: formatting added ${errors} (listed below); a formatter should not change what the code means: fix them, or undo the change.`;
  return [warning, done, ...delta.lines].join("\n");
}

/** The one region between the common first and last lines; formatters' changes are reported as that span. */
function changedRange(before: string, after: string): { summary: string; preview: string } {
  const a = before.split("\n");
  const b = after.split("\n");
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const removed = a.slice(head, a.length - tail);
  const added = b.slice(head, b.length - tail);
  const summary = `lines ${head + 1}-${head + Math.max(removed.length, 1)} changed (${removed.length} lines became ${added.length}).`;
  const shown = [...removed.map((l) => `- ${l}`), ...added.map((l) => `+ ${l}`)];
  const preview =
    shown.length > PREVIEW_LINES
      ? `${shown.slice(0, PREVIEW_LINES).join("\n")}\n[... ${shown.length - PREVIEW_LINES} more lines]`
      : shown.join("\n");
  return { summary, preview: `@@ line ${head + 1} @@\n${preview}` };
}
