// The input every position-taking LSP tool shares: a file, a 1-based line, and
// the symbol's name on that line; the column is optional, since models are poor at columns.
import * as v from "valibot";

const positive = (what: string) => v.pipe(v.number(), v.integer(), v.minValue(1), v.description(what));

export const positionFields = {
  file: v.pipe(v.string(), v.minLength(1), v.description("Relative or absolute path.")),
  line: positive("1-based line."),
  symbol: v.optional(v.pipe(v.string(), v.minLength(1), v.description("Name on that line; this or column."))),
  column: v.optional(positive("1-based; or give symbol.")),
};

export const verbosityField = {
  verbosity: v.optional(v.pipe(v.picklist(["minimal", "normal", "verbose"]), v.description("normal adds source lines.")), "normal"),
};

export type Verbosity = "minimal" | "normal" | "verbose";

export const maxResultsField = (fallback: number, max: number) => ({
  maxResults: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(max), v.description(`Most results listed.`)), fallback),
});
