// What staged text costs in memory, and the caps that keep it from putting the bridge at risk.
// Staged edits live in the bridge's heap until they are committed, rolled back, dropped with their
// session or expired; without caps, a few sessions staging large files filled a 256 MB heap and the
// bridge died with every session in it. So every stage is counted before it is kept: per session
// and across the bridge, refused with a clear error past either cap, and nothing staged so far is
// lost by a refusal.
import { DEFAULT_CONFIG } from "../../config/schema.ts";
import { ToolError } from "../../errors.ts";

const MIB = 1024 * 1024;

/** The caps on staged text, in bytes (--max-session-staged-mb, --max-staged-mb). */
export interface StagedLimits {
  readonly session: number;
  readonly bridge: number;
}

/** The bridge's defaults (src/config/schema.ts says why they are what they are), for contexts built without settings. */
export const DEFAULT_STAGED_LIMITS: StagedLimits = {
  session: DEFAULT_CONFIG.maxSessionStagedMb * MIB,
  bridge: DEFAULT_CONFIG.maxStagedMb * MIB,
};

/**
 * Bytes a string takes in the heap as V8 stores it: one byte per UTF-16 unit when every unit is
 * Latin-1, two otherwise. An estimate (a sliced or concatenated string shares its parent's bytes),
 * but never below what a flat copy costs.
 */
export function stringBytes(text: string): number {
  return /[^\u0000-\u00ff]/.test(text) ? text.length * 2 : text.length;
}

/** What holding these takes: the bytes read, the text they decode to, and the staged text when it differs. */
export function stagedFileBytes(file: { base: { original: Uint8Array; text: string }; text: string }): number {
  const base = file.base.original.byteLength + stringBytes(file.base.text);
  return file.text === file.base.text ? base : base + stringBytes(file.text);
}

export function megabytes(bytes: number): string {
  return `${(bytes / MIB).toFixed(1)} MB`;
}

/** Refuses `extra` more bytes when the session's or the bridge's staged text would pass its cap. */
export function checkRoom(
  held: { session: number; bridge: number; transactions: readonly string[] },
  extra: number,
  limits: StagedLimits,
): void {
  if (extra <= 0) return;
  if (held.session + extra > limits.session) {
    throw new ToolError(
      "limit_reached",
      `Staging this would hold ${megabytes(held.session + extra)} of staged text in this session; at most ${megabytes(limits.session)} (--max-session-staged-mb). Nothing more was staged; what was staged before is kept.`,
      {
        suggestion:
          held.transactions.length > 0
            ? `Commit or roll back one of this session's transactions (${held.transactions.join(", ")}), then stage the rest.`
            : "Edit a file this large directly (editText, replaceBlock) instead of in a transaction.",
      },
    );
  }
  if (held.bridge + extra > limits.bridge) {
    throw new ToolError(
      "limit_reached",
      `Staging this would hold ${megabytes(held.bridge + extra)} of staged text across all sessions of the bridge; at most ${megabytes(limits.bridge)} (--max-staged-mb). Nothing more was staged; what was staged before is kept.`,
      {
        suggestion:
          "Commit or roll back open transactions (other sessions' are dropped when those sessions end or go idle), then stage the rest.",
      },
    );
  }
}
