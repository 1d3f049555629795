// Turns a failed gh run into a ToolError: gh's message, GitHub's own (from the JSON body `gh api`
// prints on an HTTP error), and what to do next.
import { ToolError } from "../../errors.ts";
import type { RunResult } from "../../capabilities/exec/exec.ts";
import type { FailurePattern } from "../git/git-failure.ts";
import { AUTH_SUGGESTION } from "./gh-environment.ts";

/** gh's exit code when a command needs a login it does not have (gh's cmdutil.ExitAuth). */
const EXIT_AUTH = 4;

const PATTERNS: readonly FailurePattern[] = [
  { test: /gh auth login|HTTP 401|Bad credentials|not logged in/i, code: "github_auth_required", suggestion: AUTH_SUGGESTION },
  {
    test: /HTTP 404|Could not resolve to a|not found/i,
    code: "github_not_found",
    suggestion:
      'Check the number and the repository (pass repo as "owner/name"); a private repository also answers 404 to an account without access.',
  },
  {
    test: /none of the git remotes|no git remotes|unable to expand placeholder|not a git repository|could not determine base repo|set-default|multiple remotes/i,
    code: "github_failed",
    suggestion:
      'gh could not tell which GitHub repository this is: pass repo as "owner/name", or add a GitHub remote to the workspace repository.',
  },
  {
    test: /rate limit|HTTP 403/i,
    code: "github_failed",
    suggestion:
      "GitHub refused: the account lacks access (check the token's scopes with `gh auth status`) or hit the rate limit (wait and retry).",
  },
  {
    test: /HTTP 422|Validation Failed/i,
    code: "github_failed",
    suggestion: "GitHub rejected the request's fields (see its message): fix them and retry.",
  },
  {
    test: /still in progress/i,
    code: "github_failed",
    suggestion: "The run has not finished; check githubListRuns later and fetch the logs when it has completed.",
  },
];

export function ghFailure(what: string, result: RunResult): ToolError {
  if (result.timedOut)
    return new ToolError("timeout", `gh ${what} did not finish in time`, { suggestion: "GitHub may be slow or unreachable; retry later." });
  const message = [result.stderr.trim(), githubMessage(result.stdout)].filter((t) => t !== "").join(" — ") || `exit ${result.exitCode}`;
  const match = result.exitCode === EXIT_AUTH ? PATTERNS[0] : PATTERNS.find((p) => p.test.test(message));
  return new ToolError(match?.code ?? "github_failed", `gh ${what} failed: ${message.slice(0, 4000)}`, {
    suggestion: match?.suggestion ?? "Read GitHub's message above and retry with the request fixed.",
  });
}

/** `message` and `errors[].message` of an API error body, when stdout is one. */
function githubMessage(stdout: string): string {
  try {
    const body: unknown = JSON.parse(stdout);
    if (typeof body !== "object" || body === null) return "";
    const parts: string[] = [];
    if ("message" in body && typeof body.message === "string") parts.push(body.message);
    if ("errors" in body && Array.isArray(body.errors)) {
      for (const e of body.errors)
        parts.push(
          typeof e === "string"
            ? e
            : typeof e === "object" && e !== null && "message" in e && typeof e.message === "string"
              ? e.message
              : JSON.stringify(e),
        );
    }
    return parts.join("; ");
  } catch {
    return "";
  }
}
