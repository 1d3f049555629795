// The folder a session's relative paths resolve against (setActiveWorkspaceFolder). Each session may
// pick one folder; its ctx.fs is then a view whose root is that folder. Since everything that
// resolves a path (ctx.fs, ctx.exec's working directory, git's repository, the searches' default
// root) asks ctx.fs, they all follow the choice.
//
// Which folders a session may pick, and why:
//   - the jail's own folders (--workspace, --workspace-folder): every session. The view keeps every
//     folder, check and refusal of the jail; only where "src/x.ts" and "." start changes.
//   - the folders its client names as MCP roots (Claude Code's working directory and --add-dir), and
//     the folders of the VS Code window the extension reports: only a session the bridge knows is
//     the user's own program on this machine (a WebSocket session, which takes the bridge's token on
//     loopback only, or an HTTP session while remote access is off, so the token was its only way
//     in). With remote access on, an HTTP session may be an OAuth client on another machine: not the
//     local user, and its roots name folders of its own machine; it picks among the jail's folders.
//     The model cannot add either: roots come from the client's configuration, folders from VS Code.
// A folder from the client or the extension outside the jail widens that session's view by that
// one folder, through a jail of its own (the same checks; writes where git or VS Code take code to
// run from are refused there whatever the flags say). Never a folder that holds the home directory
// (the filesystem root, the home itself or a parent of it): that would open the user's keys and
// tokens to the model. Other sessions never see a folder one session was offered. A root the client
// drops, or a window folder the extension no longer reports, is left at once.
import { ToolError } from "../errors.ts";
import type { Fs } from "../ports/fs.ts";
import { fromFileUri } from "../lib/paths/file-uri.ts";
import { isAbsolute, isInside, normalize, relative } from "../lib/paths/posix-path.ts";
import { createWorkspace, type Workspace } from "../security/jail/workspace-jail.ts";
import type { WorkspacePath } from "../security/jail/workspace-path.ts";
import { createWorkspaceFs, type WorkspaceFs } from "../workspace/workspace-fs.ts";
import type { ToolsetState } from "./toolset-state.ts";

/** Where a selectable folder comes from. */
export type FolderSource = "workspace" | "client" | "extension";

export interface SelectableFolder {
  readonly path: string;
  readonly from: FolderSource;
  /** A folder of the VS Code window: its path as the extension reported it (it stays selectable while reported). */
  readonly reported?: string;
}

/** Each session's chosen folder, as a ctx.fs of its own; released with the session. */
export class ActiveFolders implements ToolsetState {
  private readonly views = new Map<string, { fs: WorkspaceFs; chosen: SelectableFolder }>();
  private readonly local = new Set<string>();
  /** The real directories each local session's client offered as roots (outside or inside the jail). */
  private readonly offered = new Map<string, readonly string[]>();

  constructor(
    private readonly fs: Fs,
    private readonly jail: Workspace,
    private readonly opts: { home: string },
  ) {}

  /**
   * The session's view, or undefined while it uses the workspace root. `extensionFolders` gives the
   * folders the VS Code window reports now (none while no extension is connected), asked only when
   * the view is one of them: a folder picked from the window that it no longer has is left.
   */
  fsOf(session: string, extensionFolders: () => readonly string[]): WorkspaceFs | undefined {
    const reported = this.views.get(session)?.chosen.reported;
    if (reported !== undefined && !extensionFolders().includes(reported)) this.views.delete(session);
    return this.views.get(session)?.fs;
  }

  /** The bridge knows this session's client is the user's own program on this machine (see the header). */
  markLocal(session: string): void {
    this.local.add(session);
  }

  /** The client's MCP roots, replacing what it offered before; ignored for a session not marked local. */
  async offerRoots(session: string, uris: readonly { uri: string }[]): Promise<void> {
    if (!this.local.has(session)) return;
    const paths = uris.map((r) => fromFileUri(r.uri)).filter((p): p is string => p !== undefined);
    const real = (await Promise.all(paths.map((p) => this.usable(p)))).filter((p): p is string => p !== undefined);
    if (!this.local.has(session)) return;
    this.offered.set(session, [...new Set(real)]);
    // A root the client no longer names is no longer worked in: the session is back at the workspace root.
    const chosen = this.views.get(session)?.chosen;
    if (chosen?.from === "client" && !real.includes(chosen.path)) this.views.delete(session);
  }

  /** Every folder the session may pick: the jail's, then its client's roots, then the extension's (given by the caller). */
  async selectable(session: string, extensionFolders: readonly string[]): Promise<SelectableFolder[]> {
    const found: SelectableFolder[] = this.jail.folders.map((path) => ({ path, from: "workspace" }));
    if (!this.local.has(session)) return found;
    const more: SelectableFolder[] = (this.offered.get(session) ?? []).map((path) => ({ path, from: "client" }));
    for (const reported of extensionFolders) {
      const path = await this.usable(reported);
      if (path !== undefined) more.push({ path, from: "extension", reported });
    }
    for (const folder of more) if (!found.some((f) => f.path === folder.path)) found.push(folder);
    return found;
  }

  /**
   * Makes `folder` (a real path selectable() offers this session, given the same extension folders)
   * where the session's relative paths resolve; the root undoes a choice. Returns the view's folders, the active one first.
   */
  async choose(session: string, folder: string, opts: { extensionFolders: readonly string[] }): Promise<readonly string[]> {
    const allowed = await this.selectable(session, opts.extensionFolders);
    const chosen = allowed.find((f) => f.path === folder);
    if (chosen === undefined) {
      throw new ToolError("invalid_arguments", `${folder} is not a folder this session may pick`, {
        suggestion: `Pick one of ${allowed.map((f) => f.path).join(", ")}.`,
      });
    }
    if (folder === this.jail.root) {
      this.views.delete(session);
      return this.jail.folders;
    }
    // Its path as the jail that holds it minted it: the workspace's, or the added folder's own.
    const added = this.jail.contains(folder) ? undefined : await createWorkspace(this.fs, { root: folder });
    const jail = added === undefined ? this.jail : withFolder(this.jail, added);
    const view = createWorkspaceFs(this.fs, rootedAt(jail, added?.root ?? (await this.jail.resolve(folder))));
    this.views.set(session, { fs: view, chosen });
    return view.folders;
  }

  releaseSession(session: string): void {
    this.views.delete(session);
    this.local.delete(session);
    this.offered.delete(session);
  }

  dispose(): void {
    this.views.clear();
    this.local.clear();
    this.offered.clear();
  }

  /** The real directory at `path` when a session may work in it: it exists and holds no home directory. */
  private async usable(path: string): Promise<string | undefined> {
    if (!isAbsolute(path)) return undefined;
    const real = await this.fs.realpath(path).catch(() => undefined);
    if (real === undefined || !(await this.fs.stat(real).catch(() => undefined))?.isDirectory) return undefined;
    const home = await this.fs.realpath(this.opts.home).catch(() => normalize(this.opts.home));
    // "/" holds every home directory too.
    return isInside(home, real) ? undefined : real;
  }
}

/**
 * The jail and one more folder with a jail of its own: each path is resolved by the jail whose
 * folder it is spelled in (the workspace's first, for a folder nested in the added one).
 */
function withFolder(jail: Workspace, added: Workspace): Workspace {
  const spelled = (path: string) => normalize((/^file:/i.test(path) ? fromFileUri(path) : path) ?? path);
  const owner = (path: string) => {
    const p = spelled(path);
    return !jail.folders.some((f) => isInside(p, f)) && isInside(p, added.root) ? added : jail;
  };
  return {
    root: jail.root,
    folders: [...jail.folders, added.root],
    resolve: (path, opts) => owner(path).resolve(path, opts),
    relative: (path) => jail.relative(path),
    contains: (path) => jail.contains(path) || added.contains(path),
    parentOf: (path) => owner(path).parentOf(path),
    checkWrite: (path, label) => owner(path).checkWrite(path, label),
  };
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
