// An edit check's compiler run over one tsconfig project, kept so the next edit's run "before" it
// is not the same compilation again: two edits in a row checked the project four times where three
// runs see three states. What proves a kept run current is the content of what it read (the
// program's workspace files, the configs and package folders check-inputs.ts lists): file bytes and
// folder listings, hashed, not modification times, so a file the edit wrote a moment before the run
// started is no reason to refuse it (a modification time cannot order a write and a run within the
// clock's grain; content can). A run is kept only when that content is the same just before it
// started (taken over what the project's previous run read) and just after it ended, so it read
// exactly that; a run that read a file the snapshot did not hold, read outside the workspace, or
// whose inputs cannot be read (a package linked from outside) is not kept.
import type { ToolContext } from "../../capabilities/context.ts";
import type { ToolsetState } from "../../capabilities/toolset-state.ts";
import { ToolError } from "../../errors.ts";
import { checkInputPaths } from "./check-inputs.ts";

/** Projects whose last run is kept; the oldest go first. */
const MAX_KEPT = 32;
const MAX_INPUT_BYTES = 32 * 1024 * 1024;

/** Each input path's content digest ("-" for nothing there). */
export type Snapshot = ReadonlyMap<string, string>;

interface Kept<T> {
  value: T;
  snapshot: Snapshot;
}

export class KeptRuns<T> implements ToolsetState {
  private readonly kept = new Map<string, Kept<T>>();
  /** The inputs of each key's latest run, kept or not: what the next run's snapshot is taken over. */
  private readonly lastInputs = new Map<string, string[]>();

  /** The kept run of `key` while everything it read has the content it had; undefined otherwise. */
  async lookup(ctx: Pick<ToolContext, "fs">, key: string): Promise<T | undefined> {
    const kept = this.kept.get(key);
    if (kept === undefined) return undefined;
    const now = await snapshotOf(ctx, [...kept.snapshot.keys()]);
    if (now !== undefined && same(now, kept.snapshot)) return kept.value;
    this.kept.delete(key);
    return undefined;
  }

  /** Taken just before a run starts, over what the key's previous run read; undefined when there was none. */
  async before(ctx: Pick<ToolContext, "fs">, key: string): Promise<Snapshot | undefined> {
    const inputs = this.lastInputs.get(key);
    return inputs === undefined ? undefined : snapshotOf(ctx, inputs);
  }

  /** After a run that read `files` (root-relative) under `configs`: kept when its inputs did not change while it ran. */
  async keep(
    ctx: Pick<ToolContext, "fs">,
    key: string,
    run: { value: T; files: readonly string[]; configs: readonly string[]; before: Snapshot | undefined; readsOutside: boolean },
  ): Promise<void> {
    this.kept.delete(key);
    const paths = await checkInputPaths(ctx, { files: run.files, configs: run.configs });
    if (paths === undefined) return;
    this.lastInputs.set(key, [...paths]);
    if (run.before === undefined || run.readsOutside) return;
    const after = await snapshotOf(ctx, [...paths]);
    const { before } = run;
    if (after === undefined || [...after].some(([path, digest]) => before.get(path) !== digest)) return;
    this.kept.set(key, { value: run.value, snapshot: after });
    if (this.kept.size > MAX_KEPT) this.kept.delete(this.kept.keys().next().value as string);
  }

  releaseSession(): void {}

  dispose(): void {
    this.kept.clear();
    this.lastInputs.clear();
  }
}

function same(a: Snapshot, b: Snapshot): boolean {
  return a.size === b.size && [...a].every(([path, digest]) => b.get(path) === digest);
}

/** Each path's content digest: a file's bytes, a folder's entries; undefined when one cannot be read (outside the workspace, too large). */
async function snapshotOf(ctx: Pick<ToolContext, "fs">, paths: readonly string[]): Promise<Snapshot | undefined> {
  const out = new Map<string, string>();
  for (const path of paths) {
    const digest = await digestOf(ctx, path).catch((err: unknown) => (unreadable(err) ? undefined : "-"));
    if (digest === undefined) return undefined;
    out.set(path, digest);
  }
  return out;
}

async function digestOf(ctx: Pick<ToolContext, "fs">, path: string): Promise<string> {
  const stat = await ctx.fs.stat(path);
  if (stat.isDirectory) {
    const entries = await ctx.fs.list(path);
    return `dir:${entries
      .map((e) => `${e.name}/${e.kind}`)
      .sort()
      .join("\u0000")}`;
  }
  const { bytes } = await ctx.fs.readBytes(path, { maxBytes: MAX_INPUT_BYTES });
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));
  return `file:${[...hash].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/** A path whose content may not be read (a link out of the workspace, a file too large to hash), not one that is absent. */
function unreadable(err: unknown): boolean {
  return err instanceof ToolError && err.code !== "file_not_found" && err.code !== "not_a_directory" && err.code !== "invalid_path";
}
