// The state around a stopped operation, as gitContinueOperation and gitAbortOperation need it
// before and after their step: which operation, where HEAD is, the commit it stopped on, what is
// still in conflict and which tracked files have uncommitted changes. Read over the whole
// repository (no pathspec): a conflict outside the workspace's folder blocks a continue too.
import { operationInProgress, STOPPED_AT_REF, type Operation } from "./operation.ts";
import type { Repository } from "./repository.ts";
import { parsePorcelainV2 } from "./status-parser.ts";

interface StoppedCommit {
  hash: string;
  subject: string;
}

export interface OperationState {
  operation: Operation | null;
  branch: string | null;
  /** HEAD's full hash; null before the first commit. */
  head: string | null;
  /** The commit the operation stopped on (its pseudo-ref), when git recorded one. */
  stoppedAt?: StoppedCommit;
  /** Workspace-relative, like every path a tool returns. */
  conflicts: { path: string; conflict: string }[];
  /** Tracked paths with staged or unstaged changes, conflicts included. */
  changed: string[];
  /** The same, as git names them (relative to the repository's top level). */
  changedAtTop: string[];
}

export const STATUS_MAX_BYTES = 16 * 1024 * 1024;

export async function readOperationState(repo: Repository): Promise<OperationState> {
  const [result, operation] = await Promise.all([
    repo.run(["status", "--porcelain=v2", "--branch", "-z", "--untracked-files=no"], { maxOutputBytes: STATUS_MAX_BYTES }),
    operationInProgress(repo),
  ]);
  const status = parsePorcelainV2(result.stdout, { cut: result.stdoutTruncated });
  const ref = operation === null ? undefined : STOPPED_AT_REF[operation];
  const stoppedAt = ref === undefined ? undefined : await stoppedCommit(repo, ref);
  const conflicts = status.conflicts.map((c) => ({ path: repo.workspacePath(c.path), conflict: c.conflict }));
  const changedAtTop = [...new Set([...status.staged, ...status.unstaged, ...status.conflicts].map((c) => c.path))].sort();
  const changed = changedAtTop.map((p) => repo.workspacePath(p)).sort();
  return {
    operation,
    branch: status.branch,
    head: status.commit,
    ...(stoppedAt === undefined ? {} : { stoppedAt }),
    conflicts,
    changed,
    changedAtTop,
  };
}

async function stoppedCommit(repo: Repository, ref: string): Promise<StoppedCommit | undefined> {
  // A missing pseudo-ref is an answer here (a rebase stopped by `break` or a failed `exec` has none).
  const shown = await repo.run(["show", "--no-patch", "--abbrev=10", "--format=%h%x00%s", "--end-of-options", ref], { okExitCodes: [128] });
  if (shown.exitCode !== 0) return undefined;
  const [hash = "", subject = ""] = shown.stdout.trimEnd().split("\0");
  return { hash, subject };
}

/**
 * Commits an abort left behind: reachable from HEAD as it was before, from no ref now. (A rebase's
 * replayed copies and a cherry-pick's new commits; the branch they were made on is not counted.)
 */
export async function commitsDropped(repo: Repository, before: string | null): Promise<number> {
  // A full hash git printed, never the model's text: it cannot be read as an option.
  if (before === null || !/^[0-9a-f]{40,64}$/.test(before)) return 0;
  return Number((await repo.output(["rev-list", "--count", before, "--not", "--all"])).trim());
}
