// The folder a session's relative paths resolve against (setActiveWorkspaceFolder). In a
// multi-root workspace each session may pick one of the jail's folders; its ctx.fs is then a view
// of the same jail whose root is that folder. The jail is not widened or narrowed: the view keeps
// every folder, every check and every refusal, and only changes where "src/x.ts" and "." start.
// Since everything that resolves a path (ctx.fs, ctx.exec's working directory, git's repository,
// the searches' default root) asks ctx.fs, they all follow the choice.
import { ToolError } from "../errors.ts";
import type { Fs } from "../ports/fs.ts";
import { isAbsolute, isInside, normalize, relative } from "../lib/paths/posix-path.ts";
import type { Workspace } from "../security/jail/workspace-jail.ts";
import type { WorkspacePath } from "../security/jail/workspace-path.ts";
import { createWorkspaceFs, type WorkspaceFs } from "../workspace/workspace-fs.ts";
import type { ToolsetState } from "./toolset-state.ts";

/** Each session's chosen folder, as a ctx.fs of its own; released with the session. */
export class ActiveFolders implements ToolsetState {
  private readonly views = new Map<string, WorkspaceFs>();

  constructor(
    private readonly fs: Fs,
    private readonly jail: Workspace,
  ) {}

  /** The session's view, or undefined while it uses the workspace root. */
  fsOf(session: string): WorkspaceFs | undefined {
    return this.views.get(session);
  }

  /** Makes `folder`, one of the jail's folders, where the session's relative paths resolve; the root undoes a choice. */
  choose(session: string, folder: WorkspacePath): void {
    if (!this.jail.folders.includes(folder)) {
      throw new ToolError("invalid_arguments", `${folder} is not a folder of the workspace`, {
        suggestion: `Pick one of ${this.jail.folders.join(", ")}.`,
      });
    }
    if (folder === this.jail.root) this.views.delete(session);
    else this.views.set(session, createWorkspaceFs(this.fs, rootedAt(this.jail, folder)));
  }

  releaseSession(session: string): void {
    this.views.delete(session);
  }

  dispose(): void {
    this.views.clear();
  }
}

/** The same jail, with `folder` as its root: relative paths start there, and names are relative to it. */
export function rootedAt(jail: Workspace, folder: WorkspacePath): Workspace {
  const fromFolder = (path: string): string =>
    typeof path === "string" && path !== "" && !isAbsolute(path) && !/^file:/i.test(path) ? `${folder}/${path}` : path;
  const absoluteOf = (path: string): string => {
    const named = jail.relative(path);
    if (isAbsolute(named)) return named;
    return named === "" ? jail.root : normalize(`${jail.root}/${named}`);
  };
  return {
    root: folder,
    folders: [folder, ...jail.folders.filter((f) => f !== folder)],
    resolve: (path, opts) => jail.resolve(fromFolder(path), opts),
    relative(path) {
      const real = absoluteOf(path);
      return isInside(real, folder) ? relative(folder, real) : real;
    },
    contains: (path) => jail.contains(path),
    parentOf: (path) => jail.parentOf(path),
    checkWrite: (path, label) => jail.checkWrite(path, label),
  };
}
