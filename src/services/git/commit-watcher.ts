// Commits made outside the bridge (a terminal's `git commit`, an editor's) published as git.commit,
// like gitCommit's. git appends every move of HEAD to its reflog (<git dir>/logs/HEAD, per worktree,
// so a linked worktree's .git file is followed by asking git for its git dir), with a message that
// names commits ("commit: subject", "commit (amend): ...", "commit (initial): ...", and "commit
// (cherry-pick)" / "commit (rebase)" when `git commit` ends a conflicted step); the watcher
// follows that file through the runtime's watcher, debounced, and reads only what was appended.
// The bridge's own gitCommit publishes its commit itself: a commit found here waits for that event
// (bounded) and is dropped when it comes, so one commit is one event. Checkouts, resets, pulls and
// rebases move HEAD too, but their reflog messages are not commits.
import { errorMessage } from "../../errors.ts";
import type { ToolContext } from "../../capabilities/context.ts";
import type { EventBus } from "../../capabilities/events/event-bus.ts";
import type { Fs } from "../../ports/fs.ts";
import { openRepository, type Repository } from "./repository.ts";

const DEBOUNCE_MS = 300;
/** How long a commit found in the reflog waits for gitCommit's own event before it is published. */
const OWN_COMMIT_WAIT_MS = 3_000;
const REMEMBERED = 200;

export interface CommitWatcherOptions {
  fs: Pick<Fs, "watch" | "readTextFile" | "openFile">;
  bus: EventBus;
  /** A context to run git with (the bridge's git runner), made when the watch starts. */
  gitContext(): ToolContext;
  log: { warn(message: string, data?: unknown): void };
  debounceMs?: number;
  ownCommitWaitMs?: number;
}

/** A reflog line: `<old> <new> <name> <email> <time> <tz>\t<message>`; the new hash and subject of a commit. */
export function reflogCommit(line: string): { hash: string; subject: string } | undefined {
  const tab = line.indexOf("\t");
  if (tab < 0) return undefined;
  const hash = line.slice(0, tab).split(" ")[1] ?? "";
  const match = /^commit(?: \((?:initial|amend|merge|cherry-pick|rebase)\))?: (.*)$/.exec(line.slice(tab + 1));
  if (match === null || !/^[0-9a-f]{40,64}$/.test(hash)) return undefined;
  return { hash, subject: match[1] ?? "" };
}

/** Starts following the workspace repository's reflog; resolves to the function that stops it (a no-op outside a repository). */
export async function watchCommits(opts: CommitWatcherOptions): Promise<() => void> {
  let repo: Repository;
  try {
    repo = await openRepository(opts.gitContext(), "read");
  } catch {
    return () => {};
  }
  const reflog = `${repo.gitDir}/logs/HEAD`;
  let seen = (await appended(opts.fs, reflog, 0)).size;
  const published = new Set<string>();
  const waiting = new Map<string, ReturnType<typeof setTimeout>>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const note = (hash: string) => {
    published.add(hash);
    for (const old of published) {
      if (published.size <= REMEMBERED) break;
      published.delete(old);
    }
  };
  const ownCommit = (full: string) => [...published].some((hash) => full.startsWith(hash));
  // gitCommit's event names its short hash; a commit waiting here with that prefix is the same one.
  const offOwn = opts.bus.subscribe("git.commit", (event, origin) => {
    if (origin === undefined) return;
    for (const [hash, wait] of waiting) {
      if (!hash.startsWith(event.hash)) continue;
      clearTimeout(wait);
      waiting.delete(hash);
    }
    note(event.hash);
  });
  const publish = async (commit: { hash: string; subject: string }) => {
    waiting.delete(commit.hash);
    if (stopped) return;
    const [branch, files] = await Promise.all([
      opts.fs.readTextFile(`${repo.gitDir}/HEAD`).then(
        (text) => /^ref: refs\/heads\/(.+)$/m.exec(text)?.[1] ?? null,
        () => null,
      ),
      repo
        .output(["diff-tree", "--no-commit-id", "--name-only", "-r", "--root", "-m", "--first-parent", commit.hash])
        .then((out) => out.split("\n").filter((l) => l !== "").length)
        .catch(() => 0),
    ]);
    if (stopped) return;
    note(commit.hash);
    opts.bus.publish("git.commit", { hash: commit.hash.slice(0, 10), branch, subject: commit.subject, files });
  };
  const scan = async () => {
    const tail = await appended(opts.fs, reflog, seen);
    seen = tail.size;
    for (const line of tail.lines) {
      const commit = reflogCommit(line);
      if (commit === undefined || ownCommit(commit.hash) || waiting.has(commit.hash)) continue;
      waiting.set(
        commit.hash,
        setTimeout(() => void publish(commit), opts.ownCommitWaitMs ?? OWN_COMMIT_WAIT_MS),
      );
    }
  };
  const onChange = () => {
    clearTimeout(timer);
    timer = setTimeout(() => void scan(), opts.debounceMs ?? DEBOUNCE_MS);
  };
  const onError = (err: unknown) => opts.log.warn("commits made outside the bridge are no longer seen", { error: errorMessage(err) });
  let watcher: { close(): void };
  try {
    // Before the first commit there is no logs folder: the git dir itself changes on a commit (COMMIT_EDITMSG, index).
    watcher = await opts.fs.readTextFile(reflog).then(
      () => opts.fs.watch(`${repo.gitDir}/logs`, onChange, { onError }),
      () => opts.fs.watch(repo.gitDir, onChange, { onError }),
    );
  } catch (err) {
    offOwn();
    opts.log.warn(`commits made outside the bridge are not seen: cannot watch ${reflog}`, { error: errorMessage(err) });
    return () => {};
  }
  return () => {
    stopped = true;
    watcher.close();
    offOwn();
    clearTimeout(timer);
    for (const wait of waiting.values()) clearTimeout(wait);
    waiting.clear();
  };
}

/** The complete lines appended to a file after byte `from`, and where they end (a shorter file: nothing new, from its end). */
async function appended(fs: Pick<Fs, "openFile">, path: string, from: number): Promise<{ size: number; lines: string[] }> {
  const handle = await fs.openFile(path).catch(() => undefined);
  if (handle === undefined) return { size: 0, lines: [] };
  try {
    const { size } = await handle.stat();
    // A reflog shorter than before was expired or rewritten: what is there now is not new.
    if (size <= from) return { size, lines: [] };
    const bytes = await handle.read(from, size - from);
    const end = bytes.lastIndexOf(0x0a) + 1;
    return { size: from + end, lines: new TextDecoder().decode(bytes.subarray(0, end)).split("\n") };
  } finally {
    await handle.close();
  }
}
