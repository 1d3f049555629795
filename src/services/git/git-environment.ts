// What the git tools add to every git run, on top of what the runner gives every git the bridge
// runs (src/security/git/git-environment.ts: environment, fixed options, neutralised config).

/** A path is a path: no glob or :(magic) pathspec can come from what a model typed. */
export const LITERAL_PATHSPECS = "--literal-pathspecs";

/**
 * Diff-producing commands never run an external diff program or a textconv filter (the runner
 * also empties the repository's own, which would make git fail rather than run them).
 */
export const NO_DIFF_PROGRAMS: readonly string[] = ["--no-ext-diff", "--no-textconv"];
