// A checker's answer kept with what proves it current, so a call that finds nothing it was computed
// from changed gives it back instead of running the checker again: a project's compiler answer in
// the whole-workspace check (project-checkers.ts), an edit check's compiler run, whose "after" is
// the next edit's "before" (typescript-check.ts), eslint's answer over the whole workspace (kept-eslint.ts). What an
// answer was computed from, its inputs, is listed by check-inputs.ts (its program's files and their
// folders, the configs and what their `extends` reach, the package folders module resolution looks
// in). The rules, one set for every caller:
// - The watcher's proof first (ctx.lsp.watchProof, src/lsp/unchanged-memo.ts: Node on Linux, every
//   directory watched, its pending batch taken). An answer is kept at the watcher's generation read
//   just before the run, when none of the inputs the watcher hears changed between then and the end
//   of the run; it is given back while none of them is among the paths changed since. An input is
//   heard when its folder is watched in full, when it is absent below a watched folder, or when it
//   lies below a node_modules whose top is watched: there only the package manager's lock file is
//   heard (an install rewrites it), as VS Code's own watcher does, so a package's files edited by
//   hand, a plugin's code, are not seen; and its real path must be heard too (WorkspaceWatcher.hearsChange:
//   a link out of the workspace, a package linked from outside, is not heard, so proven by content).
//   Checking it costs one realpath per folder of the inputs, and an lstat per input at node_modules'
//   top or in an @scope folder (where packages are linked, unseen by the watcher).
// - The content proof for the rest, and for every input where the watcher cannot vouch: the digest
//   of each input's content (input-digests.ts: a file's bytes, a folder's entries) taken just before
//   the run (over what the key's previous run read) and just after it must be equal, so the run read
//   exactly that, and is compared again at each lookup. A first run with such inputs is not kept.
// - An answer that may depend on any file of the workspace (a linter reads every file it lints) is
//   kept only where the watcher vouches, and only while no change at all was heard since its run
//   started; its listed inputs (the linter's configs, lock files) are proven as above.
// - An answer whose run read files outside the workspace, or whose inputs cannot be read (an
//   `extends` outside the workspace, a package linked from outside), is not kept.
import type { ToolContext } from "../../capabilities/context.ts";
import type { ToolsetState } from "../../capabilities/toolset-state.ts";
import type { WatchProof } from "../../lsp/unchanged-memo.ts";
import { checkInputPaths } from "./check-inputs.ts";
import { type Snapshot, snapshotOf } from "./input-digests.ts";

/** What the kept answers read: the workspace's files, and the watcher's word. */
export type KeptContext = Pick<ToolContext, "fs"> & { lsp: Pick<ToolContext["lsp"], "watchProof"> };

/** Taken just before a run starts (KeptAnswers.start). */
export interface RunStart {
  /** The watcher's generation then, or undefined where it cannot vouch. */
  readonly generation: number | undefined;
  /** The content of the inputs of the key's previous run the watcher does not hear (all where it cannot vouch). */
  readonly before: Snapshot | undefined;
}

/** One run, told to keep(). */
export interface Run<T> {
  value: T;
  /** Files it read (root-relative): its program's. */
  files: readonly string[];
  /** Configs it read (root-relative), with what their `extends` reach (check-inputs.ts). */
  configs: readonly string[];
  start: RunStart;
  readsOutside: boolean;
  /** It may depend on any file of the workspace, not only those listed. */
  everything?: boolean;
}

interface Kept<T> {
  value: T;
  inputs: readonly string[];
  /** The watcher's generation it is proven current at; undefined when kept under the content proof alone. */
  generation: number | undefined;
  /** The content of the inputs the watcher did not hear (all of them under the content proof alone). */
  snapshot: Snapshot;
  everything: boolean;
}

export class KeptAnswers<T> implements ToolsetState {
  private readonly kept = new Map<string, Kept<T>>();
  /** The inputs of each key's latest run, kept or not: what the next run's snapshot is taken over. */
  private readonly lastInputs = new Map<string, readonly string[]>();

  /** `max`: answers kept at once, the least recently used dropped first. */
  constructor(private readonly max: number) {}

  /** The kept answer of `key` while what it was computed from is unchanged; undefined otherwise. */
  async lookup(ctx: KeptContext, key: string): Promise<T | undefined> {
    const kept = this.kept.get(key);
    if (kept === undefined) return undefined;
    this.kept.delete(key);
    const proof = await ctx.lsp.watchProof();
    if (!(await current(ctx, kept, proof))) return undefined;
    // Proven at this generation: the next lookup asks only what changed since.
    if (proof !== undefined) kept.generation = proof.generation;
    this.kept.set(key, kept);
    return kept.value;
  }

  /** Taken just before a run of `key` starts. */
  async start(ctx: KeptContext, key: string): Promise<RunStart> {
    const proof = await ctx.lsp.watchProof();
    const inputs = this.lastInputs.get(key);
    if (inputs === undefined) return { generation: proof?.generation, before: undefined };
    const heard = await heardOf(ctx, proof, inputs);
    const unheard = inputs.filter((path) => !heard.has(path));
    return { generation: proof?.generation, before: await snapshotOf(ctx, unheard) };
  }

  /** After a run of `key`: kept when what it was computed from did not change while it ran. */
  async keep(ctx: KeptContext, key: string, run: Run<T>): Promise<void> {
    this.kept.delete(key);
    const paths = await checkInputPaths(ctx, { files: run.files, configs: run.configs });
    if (paths === undefined) return;
    const inputs = [...paths];
    this.lastInputs.delete(key);
    this.lastInputs.set(key, inputs);
    if (this.lastInputs.size > 2 * this.max) this.lastInputs.delete(this.lastInputs.keys().next().value as string);
    if (run.readsOutside) return;
    const proof = await ctx.lsp.watchProof();
    const changes = proof !== undefined && run.start.generation !== undefined ? proof.changesSince(run.start.generation) : undefined;
    if (run.everything === true && changes?.none !== true) return;
    const heard = changes === undefined ? new Set<string>() : await heardOf(ctx, proof, inputs);
    if (changes !== undefined && inputs.some((path) => heard.has(path) && changes.touches(absolute(ctx, path)))) return;
    const unheard = inputs.filter((path) => !heard.has(path));
    const { before } = run.start;
    if (unheard.length > 0 && before === undefined) return;
    const after = await snapshotOf(ctx, unheard);
    if (after === undefined || unheard.some((path) => before?.get(path) !== after.get(path))) return;
    const generation = changes === undefined ? undefined : run.start.generation;
    this.kept.set(key, { value: run.value, inputs, generation, snapshot: after, everything: run.everything === true });
    if (this.kept.size > this.max) this.kept.delete(this.kept.keys().next().value as string);
  }

  releaseSession(): void {}

  dispose(): void {
    this.kept.clear();
    this.lastInputs.clear();
  }
}

/** Whether nothing `kept` was computed from changed: the watcher's proof where it holds, the content proof for the rest. */
async function current<T>(ctx: KeptContext, kept: Kept<T>, proof: WatchProof | undefined): Promise<boolean> {
  const changes = proof !== undefined && kept.generation !== undefined ? proof.changesSince(kept.generation) : undefined;
  if (kept.everything && changes?.none !== true) return false;
  const heard = changes === undefined ? new Set<string>() : await heardOf(ctx, proof, kept.inputs);
  if (kept.inputs.some((path) => heard.has(path) && changes?.touches(absolute(ctx, path)) === true)) return false;
  const unheard = kept.inputs.filter((path) => !heard.has(path));
  // An input heard when it was kept and not now (the watcher's proof lapsed): its content was not taken.
  if (unheard.some((path) => !kept.snapshot.has(path))) return false;
  const now = await snapshotOf(ctx, unheard);
  return now !== undefined && unheard.every((path) => now.get(path) === kept.snapshot.get(path));
}

/** The inputs the watcher hears a change to (none without its proof); asked together, so each folder's real path is looked up once. */
async function heardOf(ctx: Pick<ToolContext, "fs">, proof: WatchProof | undefined, inputs: readonly string[]): Promise<Set<string>> {
  if (proof === undefined) return new Set();
  const answers = await Promise.all(inputs.map((path) => proof.hears(absolute(ctx, path))));
  return new Set(inputs.filter((_, i) => answers[i] === true));
}

/** A root-relative path (check-inputs.ts: "." for the root) as the watcher names it. */
function absolute(ctx: Pick<ToolContext, "fs">, path: string): string {
  if (path.startsWith("/")) return path;
  return path === "." || path === "" ? ctx.fs.root : `${ctx.fs.root}/${path}`;
}
