// What a checked WorkspaceEdit would make of the workspace, worked out before anything is written:
// the proposed content of every path it touches (or that the path is gone), from the files as they
// are on disk now and the edit's changes in the order the server gave them. A rename moves a file's
// content (and mode) to its new path, so text edits addressed to the new URI after it apply to the
// moved content, and those to the old URI before it too; a deletion leaves the path absent. Only
// regular files are renamed or deleted: a directory, a symlink or a device is refused.
import { ToolError } from "../errors.ts";
import type { WorkspacePath } from "../security/jail/workspace-path.ts";
import { identityOf, type FileIdentity } from "../workspace/file-version.ts";
import type { WorkspaceFs } from "../workspace/workspace-fs.ts";
import { applyTextEdits } from "./text-edits.ts";
import type { CheckedChange } from "./workspace-edit.ts";

const BOM = "\uFEFF";
/** What the edit does with a path: changes its text, moves or deletes it, or puts a file there. */
type Use = "edit" | "rename" | "delete" | "target";
const VERBS: Record<Use, string> = { edit: "changes", rename: "renames", delete: "deletes", target: "writes" };
const MAX_FILE_BYTES = 8 * 1024 * 1024;

interface DiskFile {
  text: string;
  bom: boolean;
  expect: { identity: FileIdentity; original: Uint8Array };
  mode: number;
}

interface Content {
  text: string;
  bom: boolean;
  /** The path whose file on disk this content was read from (another one for a moved file). */
  from: WorkspacePath | undefined;
}

/** Per touched path: what is on disk, and what the edit would leave there. */
export interface PlannedPath {
  path: WorkspacePath;
  relative: string;
  disk: DiskFile | undefined;
  proposed: Content | undefined;
}

interface PlanDeps {
  fs: WorkspaceFs;
  /** The text the server has open for a path: the edit's positions refer to it. */
  openText(path: WorkspacePath): string | undefined;
}

export async function planChanges(deps: PlanDeps, changes: readonly CheckedChange[]): Promise<Map<WorkspacePath, PlannedPath>> {
  const plan = new Map<WorkspacePath, PlannedPath>();
  const rel = (path: WorkspacePath) => deps.fs.relative(path);
  /** The path's entry in the plan, its disk state read on first use. */
  const at = async (path: WorkspacePath, use: Use): Promise<PlannedPath> => {
    const known = plan.get(path);
    if (known !== undefined) return known;
    const disk = await readDisk(deps, path, use);
    const entry: PlannedPath = {
      path,
      relative: rel(path),
      disk,
      proposed: disk === undefined ? undefined : { text: disk.text, bom: disk.bom, from: path },
    };
    plan.set(path, entry);
    return entry;
  };
  for (const change of changes) {
    if (change.kind === "edit") {
      const entry = await at(change.path, "edit");
      if (entry.proposed === undefined)
        throw missing(entry, entry.disk === undefined ? "changes" : "changes, after an earlier step of the same edit removed it,");
      entry.proposed = { ...entry.proposed, text: applyTextEdits(entry.proposed.text, change.edits, { file: entry.relative }) };
    } else if (change.kind === "create") {
      const entry = await at(change.path, "target");
      if (entry.proposed !== undefined && change.ignoreIfExists) continue;
      if (entry.proposed !== undefined && !change.overwrite) throw exists(entry, "creates");
      entry.proposed = { text: "", bom: false, from: undefined };
    } else if (change.kind === "rename") {
      const source = await at(change.from, "rename");
      if (source.proposed === undefined) throw missing(source, "renames");
      if (change.to === change.from) continue;
      const target = await at(change.to, "target");
      if (target.proposed !== undefined && change.ignoreIfExists) continue;
      if (target.proposed !== undefined && !change.overwrite) throw exists(target, `renames ${source.relative} to`);
      target.proposed = source.proposed;
      source.proposed = undefined;
    } else {
      const entry = await at(change.path, "delete");
      if (entry.proposed === undefined && change.ignoreIfNotExists) continue;
      if (entry.proposed === undefined) throw missing(entry, "deletes");
      entry.proposed = undefined;
    }
  }
  return plan;
}

/** The file at `path` as it is on disk, undefined when there is none; anything but a regular file is refused. */
async function readDisk(deps: PlanDeps, path: WorkspacePath, use: Use): Promise<DiskFile | undefined> {
  const relative = deps.fs.relative(path);
  const st = await deps.fs.entryStat(path);
  if (st === undefined) {
    // A file to create or move here needs its directory: the commit writes through it.
    if (use === "target") await needDirectory(deps.fs, path, relative);
    return undefined;
  }
  if (!st.isFile && !(use === "edit" && st.isSymbolicLink)) {
    const what = st.isDirectory ? "a directory" : st.isSymbolicLink ? "a symbolic link" : "not a regular file";
    throw new ToolError(
      "not_supported",
      `The language server's edit ${VERBS[use]} ${relative}, which is ${what}; the bridge creates, edits, renames and deletes regular files only, so nothing was changed`,
      {
        suggestion: st.isDirectory
          ? "Move or delete the directory with renameFile or deleteFile, then ask the server again."
          : "Make this change by hand, or pick another action.",
      },
    );
  }
  const { bytes, stat } = await deps.fs.readBytes(path, { maxBytes: MAX_FILE_BYTES, forWrite: true });
  let raw: string;
  try {
    raw = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new ToolError("binary_file", `${relative} is not valid UTF-8; the language server's edit was not applied`, {
      suggestion: "Convert the file to UTF-8 first.",
    });
  }
  const bom = raw.startsWith(BOM);
  const text = bom ? raw.slice(1) : raw;
  const seen = deps.openText(path);
  // The edit's positions refer to what the server has: a file changed since is not edited blind.
  if (seen !== undefined && seen !== text) {
    throw new ToolError("file_changed", `${relative} changed since the language server computed the edit; nothing was changed`, {
      suggestion: "Call again: the server is given the current content first.",
    });
  }
  return { text, bom, expect: { identity: identityOf(stat), original: bytes }, mode: stat.mode & 0o7777 };
}

async function needDirectory(fs: WorkspaceFs, path: WorkspacePath, relative: string): Promise<void> {
  const cut = path.lastIndexOf("/");
  const dir = cut <= 0 ? "/" : path.slice(0, cut);
  // stat, not entryStat: the directory may be the workspace root, whose own parent is outside.
  const st = await fs.stat(dir).catch(() => undefined);
  if (st?.isDirectory !== true) {
    throw new ToolError(
      "file_not_found",
      `The language server's edit puts a file at ${relative}, whose directory does not exist; nothing was changed`,
      { suggestion: "Create the directory first (createFile makes parents), then ask the server again." },
    );
  }
}

export function encode(content: Pick<Content, "text" | "bom">): Uint8Array {
  return new TextEncoder().encode(content.bom ? BOM + content.text : content.text);
}

function missing(entry: PlannedPath, verb: string): ToolError {
  return new ToolError(
    "file_not_found",
    `The language server's edit ${verb} ${entry.relative}, which does not exist; nothing was changed`,
    { suggestion: "Ask the server again: the edit was computed for files that are not there." },
  );
}

function exists(entry: PlannedPath, verb: string): ToolError {
  return new ToolError("file_exists", `The language server's edit ${verb} ${entry.relative}, which exists; nothing was changed`, {
    suggestion: "Move the file away first, or pick another code action.",
  });
}
