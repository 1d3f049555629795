// The workspace path jail (DESIGN.md, "Security in one place each"). Every path a tool touches
// comes through resolve(): lexical checks first (cheap, and they catch ".." before any I/O),
// then the real path of the deepest existing ancestor must lie inside a real workspace folder,
// which is what catches symlinks that lead out. A race between this check and the later use
// (TOCTOU) remains possible; the jail narrows it to someone who can already write in the folder.
import type { FileStat, Fs } from "../runtime.ts";
import { BridgeError, ToolError, errorMessage } from "../errors.ts";
import type { ResolveOptions, Workspace } from "../tools/context.ts";
import { fromFileUri } from "./file-uri.ts";
import { isAbsolute, isInside, join, normalize, relative } from "./posix-path.ts";
import { realAncestor } from "./real-ancestor.ts";

/** Longest path accepted, as PATH_MAX on Linux. */
export const MAX_PATH_LENGTH = 4096;

export interface WorkspaceOptions {
  root: string;
  /** Further workspace folders (absolute); folders that do not exist are left out. */
  folders?: string[];
}

export async function createWorkspace(fs: Fs, opts: WorkspaceOptions): Promise<Workspace> {
  const root = await realDirectory(fs, opts.root);
  if (root === undefined) {
    throw new BridgeError("config_invalid", `Workspace root ${opts.root} does not exist or is not a directory`);
  }
  const folders = [root];
  // Lexical aliases: the folders as given (e.g. /tmp/ws when the real path is /private/tmp/ws),
  // so an absolute path spelled the way the user knows it passes the lexical check.
  const aliases = [normalize(opts.root), root];
  for (const folder of opts.folders ?? []) {
    const real = await realDirectory(fs, folder);
    if (real === undefined || folders.includes(real)) continue;
    folders.push(real);
    aliases.push(normalize(folder), real);
  }
  return new Jail(fs, root, folders, aliases);
}

async function realDirectory(fs: Fs, path: string): Promise<string | undefined> {
  if (!isAbsolute(path)) return undefined;
  try {
    const real = await fs.realpath(path);
    return (await fs.stat(real)).isDirectory ? real : undefined;
  } catch {
    return undefined;
  }
}

class Jail implements Workspace {
  constructor(
    private readonly fs: Fs,
    readonly root: string,
    readonly folders: readonly string[],
    private readonly aliases: readonly string[],
  ) {}

  async resolve(input: string, opts: ResolveOptions = {}): Promise<string> {
    const absolute = this.lexical(input);
    const found = await realAncestor(this.fs, absolute);
    if (!this.folders.some((f) => isInside(found.real, f))) {
      throw this.outside(input, "leads outside the workspace through a symbolic link");
    }
    if (found.missing.length > 0) {
      if (opts.mustExist ?? true) {
        throw new ToolError("file_not_found", `${input} does not exist`, {
          suggestion: "Check the spelling, or locate the file with findFiles or getFileTree.",
        });
      }
      return join(found.real, ...found.missing);
    }
    if (opts.forWrite) await this.checkWritable(input, found.real);
    return found.real;
  }

  relative(absolutePath: string): string {
    const path = normalize(absolutePath);
    if (isInside(path, this.root)) return relative(this.root, path);
    const alias = this.aliases[0];
    if (alias !== undefined && isInside(path, alias)) return relative(alias, path);
    // In another workspace folder: the absolute path is the unambiguous name.
    return path;
  }

  /** Validates the string and returns a normalized absolute path that is lexically inside. */
  private lexical(input: string): string {
    if (typeof input !== "string" || input.length === 0) {
      throw new ToolError("invalid_path", "Path must be a non-empty string");
    }
    if (input.length > MAX_PATH_LENGTH) {
      throw new ToolError("invalid_path", `Path is longer than ${MAX_PATH_LENGTH} characters`);
    }
    let path = input;
    if (/^file:/i.test(input)) {
      const fromUri = fromFileUri(input);
      if (fromUri === undefined) throw new ToolError("invalid_path", `Not a usable local file URI: ${input}`);
      path = fromUri;
    }
    if (path.includes("\0")) throw new ToolError("invalid_path", "Path contains a null byte");
    const absolute = isAbsolute(path) ? normalize(path) : join(this.root, path);
    if (!this.aliases.some((a) => isInside(absolute, a))) {
      throw this.outside(input, "is outside the workspace");
    }
    return absolute;
  }

  private async checkWritable(input: string, real: string): Promise<void> {
    let st: FileStat;
    try {
      st = await this.fs.lstat(real);
    } catch (err) {
      throw new ToolError("internal_error", `Cannot stat ${input}: ${errorMessage(err)}`, { cause: err });
    }
    // Writing through a second hard link would change a file that may live outside the
    // workspace, and the jail cannot see where the other names are.
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
