// The workspace path jail (DESIGN.md, "Security in one place each"). Every path a tool touches comes
// through resolve(): lexical checks first (cheap, no I/O for a path that is plainly outside), then a
// component-by-component walk with POSIX semantics (src/security/jail/resolve-path.ts) in which every
// real location must lie inside a workspace folder. What resolve() returns is checked again where it
// is used: files and directories are opened through descriptors that are verified after the open
// (src/security/jail/checked-open.ts), so a path swapped between the check and the use cannot escape.
//
// Hard links: a read through a file with several names is served, a write is refused. A hard link is
// the same file as its other names, and on Linux (fs.protected_hardlinks) only someone who owns the
// file or can already read and write it can link it, so a read shows nothing its maker could not
// read; package managers (pnpm's store) fill node_modules with such files. A write would change
// every name at once, some possibly outside the workspace, which the jail cannot see.
//
// Writes are also refused where git takes code to run from (src/security/jail/git-places.ts: .git,
// git directories, the hooks directory and included config files the repository's config names),
// unless the bridge runs with --allow-git-dir-writes: every write path of src/workspace/ asks
// checkWrite (and resolve's forWrite does), so no tool and no language server's edit gets past it.
// VS Code's workspace config (src/security/jail/vscode-places.ts) is refused the same way unless the
// bridge runs with --allow-vscode-dir-writes: a task written there would run on the next runVSCodeTask.
import type { FileStat, Fs } from "../../ports/fs.ts";
import { BridgeError, ToolError } from "../../errors.ts";
import { fromFileUri } from "../../lib/paths/file-uri.ts";
import { dirname, isAbsolute, isInside, normalize, relative } from "../../lib/paths/posix-path.ts";
import { gitPlace } from "./git-places.ts";
import { vscodePlace } from "./vscode-places.ts";
import { fsFailure, resolveComponents } from "./resolve-path.ts";
import { markChecked, type WorkspacePath } from "./workspace-path.ts";

/** Longest path accepted, as PATH_MAX on Linux. */
const MAX_PATH_LENGTH = 4096;

export interface ResolveOptions {
  /** The path must exist (default true). When false, the deepest existing ancestor is checked. */
  mustExist?: boolean;
  /** The caller will write: hard-linked files are refused as well. */
  forWrite?: boolean;
}

/** The jail: real workspace folders, and resolution of user paths into them. */
export interface Workspace {
  /** Real (symlink-free) absolute path of the root. */
  readonly root: WorkspacePath;
  /** Real absolute paths of all workspace folders; the root is the first. */
  readonly folders: readonly WorkspacePath[];
  /**
   * Resolves a user-supplied path (absolute, relative to the root, or a file:// URI) to a real
   * absolute path inside the workspace. Throws ToolError (invalid_path, outside_workspace,
   * file_not_found, permission_denied).
   */
  resolve(path: string, opts?: ResolveOptions): Promise<WorkspacePath>;
  /** The root-relative form of an absolute path inside the workspace ("" for the root). */
  relative(absolutePath: string): string;
  /** Whether a real absolute path lies inside one of the workspace folders. */
  contains(realPath: string): boolean;
  /** The directory holding a checked path; outside_workspace for a workspace folder itself. */
  parentOf(path: WorkspacePath): WorkspacePath;
  /** Refuses (permission_denied) a write to a checked path where git takes code to run from; `label` names it. */
  checkWrite(path: WorkspacePath, label: string): Promise<void>;
}

interface WorkspaceOptions {
  root: string;
  /** Further workspace folders (absolute); folders that do not exist are left out. */
  folders?: string[];
  /** --allow-git-dir-writes: tools may write where git takes code to run from. */
  allowGitDirWrites?: boolean;
  /** --allow-vscode-dir-writes: tools may write VS Code's workspace config (.vscode/, *.code-workspace). */
  allowVSCodeDirWrites?: boolean;
}

interface Alias {
  /** The folder as the user may spell it (e.g. /tmp/ws when the real path is /private/tmp/ws). */
  components: readonly string[];
  /** The same, as a path. */
  spelled: string;
  real: WorkspacePath;
}

export async function createWorkspace(fs: Fs, opts: WorkspaceOptions): Promise<Workspace> {
  const root = await realDirectory(fs, opts.root);
  if (root === undefined) {
    throw new BridgeError("config_invalid", `Workspace root ${opts.root} does not exist or is not a directory`);
  }
  const folders = [root];
  const aliases: Alias[] = [aliasOf(opts.root, root), aliasOf(root, root)];
  for (const folder of opts.folders ?? []) {
    const real = await realDirectory(fs, folder);
    if (real === undefined || folders.includes(real)) continue;
    folders.push(real);
    aliases.push(aliasOf(folder, real), aliasOf(real, real));
  }
  // Longest first, so a folder nested in another is matched by its own name.
  aliases.sort((a, b) => b.components.length - a.components.length);
  return new Jail(fs, folders, {
    aliases,
    allowGitDirWrites: opts.allowGitDirWrites === true,
    allowVSCodeDirWrites: opts.allowVSCodeDirWrites === true,
  });
}

function aliasOf(spelled: string, real: WorkspacePath): Alias {
  const parts = components(normalize(spelled));
  return { components: parts, spelled: `/${parts.join("/")}`, real };
}

async function realDirectory(fs: Fs, path: string): Promise<WorkspacePath | undefined> {
  if (!isAbsolute(path)) return undefined;
  try {
    const real = await fs.realpath(path);
    return (await fs.stat(real)).isDirectory ? markChecked(real) : undefined;
  } catch {
    return undefined;
  }
}

class Jail implements Workspace {
  readonly root: WorkspacePath;

  private readonly aliases: readonly Alias[];
  private readonly allowGitDirWrites: boolean;
  private readonly allowVSCodeDirWrites: boolean;

  constructor(
    private readonly fs: Fs,
    readonly folders: readonly WorkspacePath[],
    opts: { aliases: readonly Alias[]; allowGitDirWrites: boolean; allowVSCodeDirWrites: boolean },
  ) {
    this.root = folders[0] as WorkspacePath;
    this.aliases = opts.aliases;
    this.allowGitDirWrites = opts.allowGitDirWrites;
    this.allowVSCodeDirWrites = opts.allowVSCodeDirWrites;
  }

  async resolve(input: string, opts: ResolveOptions = {}): Promise<WorkspacePath> {
    const { alias, rest } = this.lexical(input);
    const scope = { fs: this.fs, input, folders: this.folders, outside: (why: string) => this.outside(input, why) };
    const found = await resolveComponents(scope, { start: alias.real, components: rest });
    if (found.missing.length > 0) {
      if (opts.mustExist ?? true) {
        throw new ToolError("file_not_found", `${input} does not exist`, {
          suggestion: "Check the spelling, or locate the file with findFiles or getFileTree.",
        });
      }
      const created = markChecked(`${found.real === "/" ? "" : found.real}/${found.missing.join("/")}`);
      if (opts.forWrite) await this.checkWrite(created, input);
      return created;
    }
    if (opts.forWrite) {
      await this.checkWritable(input, found.real);
      await this.checkWrite(markChecked(found.real), input);
    }
    return markChecked(found.real);
  }

  relative(absolutePath: string): string {
    let path = normalize(absolutePath);
    // Spelled through a folder's alias (a symlinked root): name it by the real folder.
    const alias = this.aliases.find((a) => isInside(path, a.spelled));
    if (alias !== undefined) path = normalize(`${alias.real}/${components(path).slice(alias.components.length).join("/")}`);
    if (isInside(path, this.root)) return relative(this.root, path);
    // In another workspace folder: the absolute path is the unambiguous name.
    return path;
  }

  contains(realPath: string): boolean {
    return this.folders.some((folder) => isInside(realPath, folder));
  }

  parentOf(path: WorkspacePath): WorkspacePath {
    const parent = dirname(path);
    if (parent === path || !this.contains(parent)) throw this.outside(path, "is a workspace folder: its parent is outside the workspace");
    return markChecked(parent);
  }

  async checkWrite(path: WorkspacePath, label: string): Promise<void> {
    const folder = this.folders.filter((f) => isInside(path, f)).reduce((a, b) => (b.length > a.length ? b : a), this.root);
    if (!this.allowVSCodeDirWrites) {
      const why = vscodePlace(relative(folder, path));
      if (why !== undefined) {
        throw new ToolError(
          "permission_denied",
          `${label} ${why}: VS Code runs what it says (tasks, launch configurations, settings naming programs), so the bridge does not write it`,
          {
            suggestion:
              "Change it in VS Code if you mean to; or ask the user to restart the bridge with --allow-vscode-dir-writes, which lets tools write there.",
          },
        );
      }
    }
    if (this.allowGitDirWrites) return;
    const why = await gitPlace(this.fs, path, { folder, folders: this.folders });
    if (why === undefined) return;
    throw new ToolError(
      "permission_denied",
      `${label} ${why}: git runs code from there (config, hooks, attributes), so the bridge does not write it`,
      {
        suggestion:
          "Change it in a terminal if you mean to; or ask the user to restart the bridge with --allow-git-dir-writes, which lets tools write there.",
      },
    );
  }

  /**
   * Validates the string and splits it into the workspace folder it starts in and the components
   * after it, ".." kept for the walk. A path that lexically ends outside is refused without I/O.
   */
  private lexical(input: string): { alias: Alias; rest: string[] } {
    if (typeof input !== "string" || input.length === 0) {
      throw new ToolError("invalid_path", "Path must be a non-empty string", {
        suggestion: 'Pass a path relative to the workspace root, e.g. "src/index.ts".',
      });
    }
    if (input.length > MAX_PATH_LENGTH) {
      throw new ToolError("invalid_path", `Path is longer than ${MAX_PATH_LENGTH} characters`, { suggestion: "Use a shorter path." });
    }
    let path = input;
    if (/^file:/i.test(input)) {
      const fromUri = fromFileUri(input);
      if (fromUri === undefined) {
        throw new ToolError("invalid_path", `Not a usable local file URI: ${input}`, {
          suggestion: "Use file:///absolute/path (no host, query or fragment), or a plain path.",
        });
      }
      path = fromUri;
    }
    if (path.includes("\0"))
      throw new ToolError("invalid_path", "Path contains a null byte", { suggestion: "Remove the NUL character from the path." });
    const raw = components(isAbsolute(path) ? path : `${this.root}/${path}`);
    const collapsed = normalize(`/${raw.join("/")}`);
    const alias = this.aliases.find((a) => a.components.every((c, i) => raw[i] === c));
    if (alias === undefined || !this.aliases.some((a) => isInside(collapsed, a.spelled))) {
      throw this.outside(input, "is outside the workspace");
    }
    return { alias, rest: raw.slice(alias.components.length) };
  }

  private async checkWritable(input: string, real: string): Promise<void> {
    let st: FileStat;
    try {
      st = await this.fs.lstat(real);
    } catch (err) {
      throw fsFailure(input, err);
    }
    // See the header: a write through a second name would change a file the jail cannot see.
    if (st.isFile && st.nlink > 1) {
      throw new ToolError("invalid_path", `${input} is a hard link (${st.nlink} names); refusing to write through it`, {
        suggestion: "Copy the file to a new path and edit the copy.",
      });
    }
  }

  private outside(input: string, what: string): ToolError {
    const folders = this.folders.length > 1 ? ` or ${this.folders.slice(1).join(", ")}` : "";
    return new ToolError("outside_workspace", `${input} ${what}`, {
      suggestion: `Use a path inside the workspace root ${this.root}${folders} (relative paths are relative to the root).`,
    });
  }
}

/** The components of an absolute path, "" and "." dropped, ".." kept. */
function components(absolute: string): string[] {
  return absolute.split("/").filter((c) => c !== "" && c !== ".");
}
