// The input every position-taking LSP tool shares: a file, a 1-based line, and
// the symbol's name on that line; the column is optional, since models are poor at columns.
import * as v from "valibot";

const positive = (what: string) => v.pipe(v.number(), v.integer(), v.minValue(1), v.description(what));

export const positionFields = {
  file: v.pipe(v.string(), v.minLength(1), v.description("File path, relative to the workspace root, absolute, or a file:// URI.")),
  line: positive("1-based line the symbol is on."),
  symbol: v.optional(
    v.pipe(
      v.string(),
      v.minLength(1),
      v.description("The symbol's name as written on that line (located on it, or on a line nearby); give this or column."),
    ),
  ),
  column: v.optional(positive("1-based column of the symbol; optional when symbol is given.")),
};

export const verbosityField = {
  verbosity: v.optional(
    v.pipe(
      v.picklist(["minimal", "normal", "verbose"]),
      v.description("minimal: locations only; normal: with each source line (default); verbose: with the lines around."),
    ),
    "normal",
  ),
};

export type Verbosity = "minimal" | "normal" | "verbose";

export const maxResultsField = (fallback: number, max: number) => ({
  maxResults: v.optional(
    v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(max), v.description(`Most results listed (default ${fallback}).`)),
    fallback,
  ),
});
