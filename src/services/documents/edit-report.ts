// What every edit tool answers: per file a line saying what happened and the file's new content
// hash (to pass as expectedHash next time), then the unified diff, short. Plain text: it is a diff.
// The diagnostics an edit changed, when a language server has the file, come in as `notes`
// for that file (src/services/diagnostics/diagnostics-delta.ts).
import { unifiedDiff } from "../../lib/diff/unified-diff.ts";
import { contentHash } from "../../workspace/file-version.ts";

/** Diff lines across all files of one answer. */
const MAX_DIFF_LINES = 400;

interface FileChange {
  label: string;
  /** The text before (the edit tools' view of it); undefined for a created file. */
  before: string | undefined;
  /** undefined for a deleted file. */
  after: string | undefined;
  /** The bytes now on disk (or that would be), for the hash. */
  data?: Uint8Array;
  /** Lines to add under the file's summary: the language server's diagnostics delta. */
  notes?: readonly string[];
}

/** `written`: the edit was for real (a preview or a stage is not); an unchanged file is never written. */
export async function editReport(changes: readonly FileChange[], opts: { written: boolean }): Promise<string> {
  const perFile = Math.max(20, Math.floor(MAX_DIFF_LINES / Math.max(1, changes.length)));
  const parts: string[] = [];
  for (const change of changes) {
    const diff = unifiedDiff(change.before ?? "", change.after ?? "", {
      oldPath: change.before === undefined ? "/dev/null" : `a/${change.label}`,
      newPath: change.after === undefined ? "/dev/null" : `b/${change.label}`,
      maxLines: perFile,
    });
    const hash = change.data === undefined ? "" : `; hash ${await contentHash(change.data)}`;
    parts.push(`${summary(change, opts.written, diff)}${hash}`);
    for (const note of change.notes ?? []) parts.push(note);
    if (diff.text !== "") parts.push(diff.text);
  }
  return parts.join("\n");
}

function summary(change: FileChange, written: boolean, diff: { added: number; removed: number }): string {
  if (change.before !== undefined && change.before === change.after)
    return `${change.label}: unchanged (the edit gives the same text)${written ? "; nothing was written" : ""}`;
  const verb =
    change.before === undefined
      ? written
        ? "Created"
        : "Would create"
      : change.after === undefined
        ? written
          ? "Deleted"
          : "Would delete"
        : written
          ? "Edited"
          : "Would edit";
  return `${verb} ${change.label} (+${diff.added} -${diff.removed})`;
}
