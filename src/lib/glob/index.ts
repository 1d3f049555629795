// Globs for findFiles: *, **, ?, [abc] / [!abc], {a,b} (nestable), "\" escapes; linear-time matching.
export { compileGlob, type GlobMatcher } from "./matcher.ts";
