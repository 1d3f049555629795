// Input fields the GitHub tools share.
import * as v from "valibot";

export const RepoInput = v.optional(
  v.pipe(
    v.string(),
    v.regex(/^[A-Za-z0-9-]{1,39}\/(?!\.\.?$)[A-Za-z0-9_.-]{1,100}$/, 'must be "owner/name"'),
    v.description('"owner/name" (default: origin\'s).'),
  ),
);

export const NumberInput = (what: string) => v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(1e9), v.description(what));

export const TitleInput = v.pipe(
  v.string(),
  v.minLength(1),
  v.maxLength(256),
  v.regex(/\S/, "must not be blank"),
  v.description("Title (one line)."),
);

export const BodyInput = (what: string) => v.pipe(v.string(), v.maxLength(65_536), v.description(`${what} Markdown.`));

export const StateInput = v.optional(
  v.pipe(v.picklist(["open", "closed", "all"]), v.description('"open" (default), "closed" or "all".')),
  "open",
);

export const LimitInput = v.optional(
  v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100), v.description("Most items listed.")),
  20,
);

export const NameListInput = (what: string) =>
  v.optional(v.pipe(v.array(v.pipe(v.string(), v.minLength(1), v.maxLength(100))), v.maxLength(20), v.description(what)));
