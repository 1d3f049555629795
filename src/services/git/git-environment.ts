// What every git the bridge runs gets, whatever the tool. Two promises: git never waits for a person
// (the bridge has no terminal, and a prompt would hang the call until its timeout), and no argument
// or setting from outside the bridge turns a plain request into something else. Program-running
// keys of the repository's own config are handled per call in repo-config-guard.ts.

/** Added to the child's environment (the user's own GIT_* variables are kept: they are the user's). */
export const GIT_ENV: Readonly<Record<string, string>> = {
  // No username/password prompt on a terminal; a credential helper still answers.
  GIT_TERMINAL_PROMPT: "0",
  // Empty, not unset: git then skips core.askPass and SSH_ASKPASS too (prompt.c checks `*askpass`),
  // so neither an editor's GUI askpass (VS Code sets one) nor the repository's can wait for a click.
  GIT_ASKPASS: "",
  SSH_ASKPASS: "",
  // Git Credential Manager would open a browser window and wait.
  GCM_INTERACTIVE: "never",
  // Commit, merge and rebase never open an editor; messages come from the tool.
  GIT_EDITOR: "true",
  GIT_SEQUENCE_EDITOR: "true",
  GIT_MERGE_AUTOEDIT: "no",
  GIT_PAGER: "cat",
  PAGER: "cat",
  // status must not take index.lock to refresh stat data: a user's git running at the same time
  // would fail on the lock.
  GIT_OPTIONAL_LOCKS: "0",
  // English messages: the bridge recognises conflicts and rejections by git's wording.
  LC_ALL: "C",
};

/** Options before the subcommand, on every call. */
export const GIT_GLOBAL_ARGS: readonly string[] = [
  "--no-pager",
  // A path is a path: no glob or :(magic) pathspec can come from what a model typed.
  "--literal-pathspecs",
  // The repository's config may name a program here, and the builtin daemon would outlive the call.
  "-c",
  "core.fsmonitor=false",
  "-c",
  "core.quotePath=false",
  "-c",
  "color.ui=false",
  // ext:: remote URLs run a command (a url.<base>.insteadOf in the repository could produce one).
  "-c",
  "protocol.ext.allow=never",
  // A recursive pull or checkout runs `submodule.<name>.update = !command` from .git/config.
  "-c",
  "submodule.recurse=false",
  // Would run the gpg program on every log and show.
  "-c",
  "log.showSignature=false",
];

/**
 * For read tools only. No read command git has runs a hook; this keeps it so if one ever does, and
 * makes the promise visible in the argv: a read runs nothing the repository names.
 */
export const GIT_READ_ARGS: readonly string[] = ["-c", "core.hooksPath=/dev/null"];

/** Diff-producing commands never run an external diff program or a textconv filter. */
export const NO_DIFF_PROGRAMS: readonly string[] = ["--no-ext-diff", "--no-textconv"];
