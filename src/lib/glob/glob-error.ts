// The errors a glob can raise. Their messages are read by a model, so each names the problem,
// where it is, and (always) what to write instead.
import { ToolError } from "../../errors.ts";

/** Long patterns are cut in messages; the column still points into the full pattern. */
const SHOWN_CHARS = 120;

export function globError(message: string, suggestion: string): ToolError {
  return new ToolError("invalid_arguments", message, { suggestion });
}

/** `at column 5 in glob "src/[ab"`; columns count code points from 1 in the pattern as given. */
export function where(pattern: string, column: number): string {
  return `at column ${column} in ${quoteGlob(pattern)}`;
}

export function quoteGlob(pattern: string): string {
  const shown = pattern.length > SHOWN_CHARS ? `${pattern.slice(0, SHOWN_CHARS)}...` : pattern;
  return `glob "${shown}"`;
}
