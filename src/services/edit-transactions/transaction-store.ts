// Open edit transactions. Staging writes nothing: a transaction holds, per file, the version read
// when the file was first staged and the text as staged so far, and commitTransaction writes them
// all at once through ctx.fs.commit (all or none, each file still the version read). A transaction
// belongs to the session that began it (another session gets "not found", not a hint that it
// exists), ends with that session or the bridge, and expires after a quiet spell; expiry is checked
// whenever the store is used, so no timer keeps anything alive. What staged text holds is counted
// per session and across the bridge (staged-bytes.ts), so stageEdit can refuse before memory is at risk.
import { ToolError } from "../../errors.ts";
import type { WorkspacePath } from "../../security/jail/workspace-path.ts";
import { defineToolsetState, type ToolsetState } from "../../capabilities/toolset-state.ts";
import type { TextDocument } from "../documents/text-document.ts";

/** A transaction not used for this long is dropped. */
export const TRANSACTION_IDLE_MS = 15 * 60 * 1000;
const MAX_OPEN_PER_SESSION = 4;
export const MAX_FILES_PER_TRANSACTION = 100;

export interface StagedFile {
  /** The file as read when first staged; its text is `base.text`. */
  readonly base: TextDocument;
  /** The file did not exist: committing creates it. */
  readonly create: boolean;
  text: string;
  /** What holding it takes in the heap (stagedFileBytes), kept up to date by stageEdit. */
  bytes: number;
}

export interface Transaction {
  readonly id: string;
  readonly session: string;
  lastUsed: number;
  readonly files: Map<WorkspacePath, StagedFile>;
}

export class TransactionStore implements ToolsetState {
  private readonly open = new Map<string, Transaction>();

  constructor(private readonly now: () => number = Date.now) {}

  begin(session: string): Transaction {
    this.expire();
    const mine = [...this.open.values()].filter((t) => t.session === session);
    if (mine.length >= MAX_OPEN_PER_SESSION) {
      throw new ToolError("limit_reached", `This session already has ${mine.length} open transactions (at most ${MAX_OPEN_PER_SESSION})`, {
        suggestion: `Commit or roll back one of them first: ${mine.map((t) => t.id).join(", ")}.`,
      });
    }
    const tx: Transaction = { id: `tx-${crypto.randomUUID().slice(0, 8)}`, session, lastUsed: this.now(), files: new Map() };
    this.open.set(tx.id, tx);
    return tx;
  }

  /** The session's open transaction `id`; touching it keeps it alive. */
  get(session: string, id: string): Transaction {
    this.expire();
    const tx = this.open.get(id);
    if (tx === undefined || tx.session !== session) {
      throw new ToolError(
        "transaction_not_found",
        `No open transaction ${id} in this session (it was committed, rolled back, or expired after ${TRANSACTION_IDLE_MS / 60_000} idle minutes)`,
        {
          suggestion: "Begin a new one with beginTransaction and stage the edits again.",
        },
      );
    }
    tx.lastUsed = this.now();
    return tx;
  }

  end(id: string): void {
    this.open.delete(id);
  }

  /** When `tx` expires unless used again. */
  expiresAt(tx: Transaction): number {
    return tx.lastUsed + TRANSACTION_IDLE_MS;
  }

  releaseSession(session: string): void {
    for (const [id, tx] of this.open) if (tx.session === session) this.open.delete(id);
  }

  dispose(): void {
    this.open.clear();
  }

  /** Bytes of staged text held by `session` and by every session, and the session's transactions. */
  held(session: string): { session: number; bridge: number; transactions: string[] } {
    this.expire();
    const held = { session: 0, bridge: 0, transactions: [] as string[] };
    for (const tx of this.open.values()) {
      const bytes = transactionBytes(tx);
      held.bridge += bytes;
      if (tx.session !== session) continue;
      held.session += bytes;
      held.transactions.push(tx.id);
    }
    return held;
  }

  /** Open transactions, for tests and status. */
  get size(): number {
    return this.open.size;
  }

  private expire(): void {
    const now = this.now();
    for (const [id, tx] of this.open) if (now - tx.lastUsed > TRANSACTION_IDLE_MS) this.open.delete(id);
  }
}

/** The open edit transactions of the bridge. */
export const TRANSACTIONS = defineToolsetState("edit.transactions", () => new TransactionStore());

export function transactionBytes(tx: Transaction): number {
  let total = 0;
  for (const file of tx.files.values()) total += file.bytes;
  return total;
}
