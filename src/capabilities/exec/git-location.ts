// Where git finds the repository from a directory: asked with rev-parse beside the config read of
// an opening (it runs no program whatever the config says), and read by the opening's memo
// (git-opening-memo.ts) and by the git tools' repository (src/services/git/repository.ts).

/** The rev-parse that answers GitLocation, one line each, in its order. */
export const LOCATE_ARGS: readonly string[] = [
  "rev-parse",
  "--show-toplevel",
  "--show-prefix",
  "--absolute-git-dir",
  "--path-format=absolute",
  "--git-common-dir",
];

export interface GitLocation {
  /** The working tree's top, absolute ("" when git found none). */
  top: string;
  /** The directory asked from, relative to the top: "" at the top, else e.g. "packages/app/". */
  prefix: string;
  /** This worktree's own git directory, absolute. */
  gitDir: string;
  /** The git directory the worktrees share (the main one's .git), absolute. */
  commonDir: string;
}

export function parseLocation(stdout: string): GitLocation {
  const [top = "", prefix = "", gitDir = "", commonDir] = stdout.split("\n");
  return { top, prefix, gitDir, commonDir: commonDir === undefined || commonDir === "" ? gitDir : commonDir };
}
