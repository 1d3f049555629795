// Every event the bridge publishes, by name: one map, so publishers and subscribers agree on each
// payload. The tool areas add theirs here (git: commits, pushes, pulls, checkouts, PRs; commands:
// test runs). Payloads are plain data: paths relative to the workspace root, no file contents.
export interface BridgeEvents {
  /** A tools/call finished: `outcome` is "ok" or the error code of its isError result. */
  "tool.called": { tool: string; session: string; durationMs: number; outcome: string; resultChars?: number };
  /**
   * A tools/call (`toolCalls`) or any message (`requests`, --request-rate-limit) refused by a rate
   * limit before it ran; `waitMs` until the budget allows the next; `session` when one was charged.
   */
  "rate.limited": { limit: "toolCalls" | "requests"; waitMs: number; session?: string };

  // git: one event per successful write tool, published after git finished (automation's
  // onGitCommit, onGitPush, onGitPull, onBranchCheckout and onPullRequest hooks subscribe to them).
  /** gitAdd staged changes; `staged` counts the paths staged now (not only the new ones). */
  "git.add": { staged: number };
  "git.commit": { hash: string; branch: string | null; subject: string; files: number };
  "git.checkout": { branch: string; previous: string | null; created: boolean };
  "git.fetch": { remote: string | null };
  "git.pull": { remote: string | null; branch: string | null; rebase: boolean; head: string };
  "git.push": { remote: string; branch: string; setUpstream: boolean; force: boolean };
  "git.stash": { action: "push" | "pop"; ref: string };
  // GitHub: one event per issue, comment, pull request or review the bridge created.
  "github.issue": { action: "created" | "commented"; repo: string; number: number; url: string };
  "github.pullRequest": { action: "created" | "reviewed"; repo: string; number: number; url: string };
  /**
   * runTests finished a run (cached answers are not runs). "pass-after-fail" is a pass whose
   * previous run failed: the seed's onTestRun filters are "any", "failure" and "pass-after-fail".
   */
  "test.run": {
    runner: string;
    outcome: "pass" | "fail" | "pass-after-fail";
    passed: number;
    failed: number;
    skipped: number;
    durationMs: number;
    /** The failing tests (at most 50), for the prompts and resources that show the latest run. */
    failures: { test: string; file?: string; line?: number; message: string }[];
  };
  /** A file's errors appeared ("error") or all cleared ("cleared") in a language server's diagnostics (automation's onDiagnosticsStateChange). */
  "diagnostics.state": {
    file: string;
    state: "error" | "cleared";
    count: number;
    errors: number;
    worstSeverity: "error" | "warning" | "information" | "hint";
    /** The first errors, one `file:line:col: message` a line. */
    lines: string;
  };
  /**
   * getDiagnostics answered (src/services/automation/diagnostics-checked.ts): the files with
   * diagnostics within `scope` (a file or folder; absent: the workspace); `complete` when no checker
   * was skipped or cut short, so a file of the scope not listed has none. Lines are 1-based.
   */
  "diagnostics.checked": {
    scope?: string;
    complete: boolean;
    files: { file: string; items: { severity: "error" | "warning" | "info" | "hint"; line: number; column: number; message: string }[] }[];
  };
  /**
   * A debug session started or ended, headless (src/dap) or in VS Code (automation's onDebugSession).
   * `name` is the program or launch configuration; `exitCode` when the program's end reported one.
   */
  "debug.session": {
    phase: "start" | "end";
    id: string;
    language: string;
    name: string;
    via: "headless" | "vscode";
    exitCode?: number;
  };
  /** A file was saved in the editor (VS Code's extension) or reported saved by Claude Code (onFileSave). */
  "file.saved": { file: string; via: "vscode" | "notify" };
  /** A Claude Code task finished (automation's onTaskSuccess; `trigger` is "tool" or the hook that started it). */
  "claude.task": { id: string; status: string; trigger: string };
}
