// Every git and GitHub tool is found by the words a model would use for it: each phrase, ranked
// against every tool of the bridge as Claude Code's ToolSearch ranks (test/helpers/tool-search-rank.ts),
// puts the tool in the five ToolSearch answers with.
import { describe, expect, it } from "vitest";
import { gitToolset } from "../../../src/tools/git/index.ts";
import { githubToolset } from "../../../src/tools/github/index.ts";
import { TOOLSETS } from "../../../src/tools/toolsets.ts";
import { rankTools } from "../../helpers/tool-search-rank.ts";

/** ToolSearch's default max_results. */
const TOP = 5;

/** What a model types, and the tool it means. At least one phrase per tool. */
const PHRASES: readonly (readonly [string, string])[] = [
  ["commit changes", "gitCommit"],
  ["what changed", "getGitDiff"],
  ["who wrote this line", "gitBlame"],
  ["open a pull request", "githubCreatePR"],
  ["CI failed why", "githubGetRunLogs"],
  ["git status", "getGitStatus"],
  ["which files are modified", "getGitStatus"],
  ["uncommitted changes diff", "getGitDiff"],
  ["show staged changes", "getGitDiff"],
  ["recent commits", "getGitLog"],
  ["commit history of a file", "getGitLog"],
  ["show a commit", "getCommitDetails"],
  ["what did this commit change", "getCommitDetails"],
  ["compare two branches", "getDiffBetweenRefs"],
  ["diff against main", "getDiffBetweenRefs"],
  ["git blame", "gitBlame"],
  ["files that change most often", "getGitHotspots"],
  ["history of a function", "getSymbolHistory"],
  ["list branches", "gitListBranches"],
  ["list stashes", "gitStashList"],
  ["stage files", "gitAdd"],
  ["git add", "gitAdd"],
  ["save my work with a message", "gitCommit"],
  ["switch branch", "gitCheckout"],
  ["create a new branch", "gitCheckout"],
  ["fetch from origin", "gitFetch"],
  ["pull latest changes", "gitPull"],
  ["push my branch", "gitPush"],
  ["stash my changes", "gitStash"],
  ["restore stashed changes", "gitStashPop"],
  ["continue the rebase", "gitContinueOperation"],
  ["resolve conflicts and continue", "gitContinueOperation"],
  ["git rebase --continue", "gitContinueOperation"],
  ["finish the merge after fixing conflicts", "gitContinueOperation"],
  ["continue cherry-pick", "gitContinueOperation"],
  ["abort the merge", "gitAbortOperation"],
  ["git rebase --abort", "gitAbortOperation"],
  ["skip this commit", "gitAbortOperation"],
  ["cancel the cherry-pick", "gitAbortOperation"],
  ["give up the rebase and go back", "gitAbortOperation"],
  ["create github issue", "githubCreateIssue"],
  ["report a bug on github", "githubCreateIssue"],
  ["read issue", "githubGetIssue"],
  ["list open issues", "githubListIssues"],
  ["comment on an issue", "githubCommentIssue"],
  ["create pull request", "githubCreatePR"],
  ["view pull request", "githubViewPR"],
  ["list pull requests", "githubListPRs"],
  ["pull request diff", "githubGetPRDiff"],
  ["review a pull request", "githubPostPRReview"],
  ["is CI passing", "githubListRuns"],
  ["workflow runs", "githubListRuns"],
  ["build logs of the failed job", "githubGetRunLogs"],
  ["file the AI comment as an issue", "createGithubIssueFromAIComment"],
  ["fill in the PR template", "getPRTemplate"],
  ["diff since the handoff note", "getDiffFromHandoff"],
];

const ALL_TOOLS = TOOLSETS.flatMap((s) => s.tools);

describe("git and GitHub tools are found by a model's words", () => {
  it("every git and GitHub tool has a phrase here", () => {
    const covered = new Set(PHRASES.map(([, tool]) => tool));
    expect([...gitToolset.tools, ...githubToolset.tools].map((t) => t.name).filter((n) => !covered.has(n))).toEqual([]);
  });

  it.each(PHRASES)("%j finds %s", (phrase, tool) => {
    const ranked = rankTools(ALL_TOOLS, phrase);
    const at = ranked.findIndex((r) => r.name === tool);
    expect(
      at,
      `${phrase}: ${ranked
        .slice(0, 5)
        .map((r) => `${r.name} ${r.score.toFixed(2)}`)
        .join(", ")}`,
    ).toBeLessThan(TOP);
  });
});
