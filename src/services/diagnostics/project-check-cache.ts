// A project's compiler answer kept with the state of everything it was computed from, so a warm
// whole-workspace check does not run the compiler again over a project nothing changed in: run
// again, it would print the same (bench/lsp-truth.mjs `workspace`: a warm check of 331 files took
// 4.5 s by rerunning the compiler, against 0.3 s by the language server's kept answers). What it
// was computed from is listed in check-inputs.ts (its program's files and their folders, the
// configs and what their `extends` reach, the package folders module resolution looks in): device,
// inode, size and modification time of each, or its absence. An answer is not kept when one of
// those changed while the compiler ran (modified at or after its start, give or take the clock's
// grain), nor when its program reads files outside the workspace other than the compiler's own
// lib files, nor when a config extends one outside the workspace, nor when a package folder it
// looks in links a package from outside the workspace (its files' state cannot be read, and the
// compiler may read them without listing them: a package.json, a config it extends). A refusal
// that depends on those same inputs and the build outputs it found missing (TS6305) is kept the
// same way: its files are then checked one by one by the language server, whose answers are kept too.
import type { ToolContext } from "../../capabilities/context.ts";
import { defineToolsetState, type ToolsetState } from "../../capabilities/toolset-state.ts";
import { checkInputPaths } from "./check-inputs.ts";
import type { ProjectCheck } from "./tsgo-check.ts";
import { ToolError } from "../../errors.ts";

/** File systems keep modification times to a second at worst (ext3, HFS+). */
const MTIME_GRAIN_MS = 2000;
/** Projects whose answers are kept; the oldest go first. */
const MAX_PROJECTS = 64;

interface Kept {
  inputs: string;
  check: ProjectCheck;
}

export class ProjectCheckCache implements ToolsetState {
  private readonly byProject = new Map<string, Kept>();

  /** The kept answer for `project` when its inputs are as they were; undefined otherwise. */
  async lookup(ctx: Pick<ToolContext, "fs">, project: string, opts: { configs: readonly string[] }): Promise<ProjectCheck | undefined> {
    const kept = this.byProject.get(project);
    if (kept === undefined) return undefined;
    const now = await inputsOf(ctx, { files: readsOf(kept.check), configs: opts.configs, since: Number.POSITIVE_INFINITY });
    return now === kept.inputs ? kept.check : undefined;
  }

  /** Keeps a fresh answer, unless an input changed after `startedAt` (the run may have read either version). */
  async keep(
    ctx: Pick<ToolContext, "fs">,
    project: string,
    opts: { check: ProjectCheck; configs: readonly string[]; startedAt: number },
  ): Promise<void> {
    this.byProject.delete(project);
    const { check } = opts;
    if ((check.failed !== undefined && check.refusedOn === undefined) || check.timedOut === true || check.readsOutside === true) return;
    const inputs = await inputsOf(ctx, { files: readsOf(check), configs: opts.configs, since: opts.startedAt - MTIME_GRAIN_MS });
    if (inputs === undefined) return;
    this.byProject.set(project, { inputs, check: opts.check });
    if (this.byProject.size > MAX_PROJECTS) this.byProject.delete(this.byProject.keys().next().value as string);
  }

  releaseSession(): void {}

  dispose(): void {
    this.byProject.clear();
  }
}

export const PROJECT_CHECKS = defineToolsetState("diagnostics.project-checks", () => new ProjectCheckCache());

/** The workspace files an answer (its program's) or a kept refusal (its program's and the missing outputs it named) was computed from. */
function readsOf(check: ProjectCheck): readonly string[] {
  return check.refusedOn ?? check.files;
}

const OUT_OF_SIGHT = Symbol("out of sight");

/** Whether a stat failed because the path may not be read (a link out of the workspace), not because nothing is there (a state the key records). */
function refused(err: unknown): boolean {
  return err instanceof ToolError && (err.code === "outside_workspace" || err.code === "permission_denied");
}

/** The state of a project's inputs as one string; undefined when one was modified at or after `since`. */
async function inputsOf(
  ctx: Pick<ToolContext, "fs">,
  opts: { files: readonly string[]; configs: readonly string[]; since: number },
): Promise<string | undefined> {
  const paths = await checkInputPaths(ctx, opts);
  if (paths === undefined) return undefined;
  const parts: string[] = [];
  for (const path of [...paths].sort()) {
    const stat = await ctx.fs.stat(path).catch((err: unknown) => (refused(err) ? OUT_OF_SIGHT : undefined));
    // A path the jail refuses (a package linked from outside the workspace) has a state that cannot be read: keep nothing.
    if (stat === OUT_OF_SIGHT) return undefined;
    if (stat !== undefined && stat.mtimeMs >= opts.since) return undefined;
    parts.push(stat === undefined ? `${path}\u0000-` : `${path}\u0000${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeMs}`);
  }
  return parts.join("\n");
}
