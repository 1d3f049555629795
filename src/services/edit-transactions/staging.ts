// Putting text into a transaction: the file as first staged (read once, its version kept for the
// commit) and its new staged text, counted against the staged-text caps before it is kept. Shared
// by stageEdit and by the speculative edits (safeApplyEdit into a transaction), so both stage the
// same way and a refused stage leaves the transaction as it was.
import { ToolError } from "../../errors.ts";
import { displayName } from "../../lib/text/display-name.ts";
import { hashMatches } from "../../workspace/file-version.ts";
import type { ToolContext } from "../../capabilities/context.ts";
import { newDocument, readDocument, type ExpectedVersion } from "../documents/text-document.ts";
import { checkRoom, DEFAULT_STAGED_LIMITS, stagedFileBytes, type StagedLimits } from "./staged-bytes.ts";
import { MAX_FILES_PER_TRANSACTION, TRANSACTIONS, type StagedFile, type Transaction } from "./transaction-store.ts";

export function stagedLimits(ctx: Pick<ToolContext, "settings">): StagedLimits {
  return ctx.settings.stagedBytes ?? DEFAULT_STAGED_LIMITS;
}

/**
 * The transaction's entry for `filePath`, added (read from disk) when it has none; `added` says so.
 * `creating`: the caller has content for a file that does not exist yet.
 */
export async function stagedFile(
  ctx: ToolContext,
  tx: Transaction,
  opts: ExpectedVersion & { filePath: string; creating: boolean },
): Promise<{ file: StagedFile; added: boolean }> {
  const { filePath } = opts;
  const path = await ctx.fs.resolve(filePath, { mustExist: false, forWrite: true });
  const known = tx.files.get(path);
  if (known !== undefined) {
    // The version a caller names is the one on disk, which the staged file was read from.
    if (opts.expectedHash !== undefined && !known.create && !hashMatches(opts.expectedHash, known.base.hash)) {
      throw new ToolError("file_changed", `${filePath} was staged at hash ${known.base.hash}, not ${opts.expectedHash}`, {
        suggestion: "Stage against the version the transaction holds, or roll it back and start again.",
      });
    }
    return { file: known, added: false };
  }
  if (tx.files.size >= MAX_FILES_PER_TRANSACTION) {
    throw new ToolError("limit_reached", `Transaction ${tx.id} already stages ${MAX_FILES_PER_TRANSACTION} files`, {
      suggestion: "Commit it, then stage the other files in a new transaction.",
    });
  }
  const entry = await ctx.fs.entryStat(filePath);
  if (entry === undefined && !opts.creating) {
    throw new ToolError("file_not_found", `${filePath} does not exist`, {
      suggestion: "Check the path; to create the file in this transaction, stage it with `content`.",
    });
  }
  // Refused before the file is read: holding it takes at least its bytes and their text.
  if (entry !== undefined) checkRoom(ctx.state(TRANSACTIONS).held(ctx.session), 2 * entry.size, stagedLimits(ctx));
  const base = entry !== undefined ? await readDocument(ctx, filePath, opts) : newDocument(path, displayName(ctx.fs.relative(path)));
  const file: StagedFile = { base, create: entry === undefined, text: base.text, bytes: 0 };
  file.bytes = stagedFileBytes(file);
  tx.files.set(path, file);
  return { file, added: true };
}

/**
 * Replaces the staged text of `file`, counted against the caps first (other calls may have staged
 * meanwhile, so the room is asked now). On a refusal nothing changes, and a file `added` by this
 * call is taken out of the transaction again.
 */
export function restage(ctx: ToolContext, tx: Transaction, opts: { staged: { file: StagedFile; added: boolean }; text: string }): void {
  const { staged, text } = opts;
  const bytes = stagedFileBytes({ base: staged.file.base, text });
  try {
    checkRoom(ctx.state(TRANSACTIONS).held(ctx.session), bytes - staged.file.bytes, stagedLimits(ctx));
  } catch (err) {
    if (staged.added) tx.files.delete(staged.file.base.path);
    throw err;
  }
  staged.file.text = text;
  staged.file.bytes = bytes;
}
