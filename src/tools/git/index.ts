// The git toolset: the workspace repository through the git CLI (never a shell), reads and writes.
import { defineToolset } from "../platform/toolset.ts";
import getCommitDetails from "./get-commit-details.ts";
import getDiffBetweenRefs from "./get-diff-between-refs.ts";
import getDiffFromHandoff from "./get-diff-from-handoff.ts";
import getGitDiff from "./get-git-diff.ts";
import getGitHotspots from "./get-git-hotspots.ts";
import getGitLog from "./get-git-log.ts";
import getGitStatus from "./get-git-status.ts";
import getPRTemplate from "./get-pr-template.ts";
import getSymbolHistory from "./get-symbol-history.ts";
import gitAbortOperation from "./git-abort-operation.ts";
import gitAdd from "./git-add.ts";
import gitBlame from "./git-blame.ts";
import gitCheckout from "./git-checkout.ts";
import gitCommit from "./git-commit.ts";
import gitContinueOperation from "./git-continue-operation.ts";
import gitFetch from "./git-fetch.ts";
import gitListBranches from "./git-list-branches.ts";
import gitPull from "./git-pull.ts";
import gitPush from "./git-push.ts";
import gitStash from "./git-stash.ts";
import gitStashList from "./git-stash-list.ts";
import gitStashPop from "./git-stash-pop.ts";

export const gitToolset = defineToolset({
  name: "git",
  purpose: "status, diff, log, blame, history, hotspots, branches; add, commit, checkout, pull, push, stash, rebase/merge",
  defaults: { requires: { probes: ["git"] } },
  tools: [
    getGitStatus,
    getGitDiff,
    getGitLog,
    getCommitDetails,
    getDiffBetweenRefs,
    gitBlame,
    getGitHotspots,
    getSymbolHistory,
    gitListBranches,
    gitStashList,
    gitAdd,
    gitCommit,
    gitCheckout,
    gitFetch,
    gitPull,
    gitPush,
    gitStash,
    gitStashPop,
    gitContinueOperation,
    gitAbortOperation,
    // A pull request description and the changes since the last session, both read from the repository.
    getPRTemplate,
    getDiffFromHandoff,
  ],
});
