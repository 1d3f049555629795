// The github toolset: issues, pull requests, reviews and Actions runs through the gh CLI.
import { GH_TIMEOUT_MS } from "../../services/github/gh-environment.ts";
import { defineToolset } from "../platform/toolset.ts";
import githubCommentIssue from "./github-comment-issue.ts";
import githubCreateIssue from "./github-create-issue.ts";
import githubCreatePR from "./github-create-pr.ts";
import githubGetIssue from "./github-get-issue.ts";
import githubGetPRDiff from "./github-get-pr-diff.ts";
import githubGetRunLogs from "./github-get-run-logs.ts";
import createGithubIssueFromAIComment from "./github-issue-from-ai-comment.ts";
import githubListIssues from "./github-list-issues.ts";
import githubListPRs from "./github-list-prs.ts";
import githubListRuns from "./github-list-runs.ts";
import githubPostPRReview from "./github-post-pr-review.ts";
import githubViewPR from "./github-view-pr.ts";

export const githubToolset = defineToolset({
  name: "github",
  purpose: "GitHub issues, pull requests, reviews, Actions CI runs and logs (gh)",
  defaults: { requires: { probes: ["gh"] }, timeoutMs: GH_TIMEOUT_MS },
  tools: [
    githubListIssues,
    githubGetIssue,
    githubCreateIssue,
    githubCommentIssue,
    createGithubIssueFromAIComment,
    githubListPRs,
    githubViewPR,
    githubGetPRDiff,
    githubCreatePR,
    githubPostPRReview,
    githubListRuns,
    githubGetRunLogs,
  ],
});
