// One save, one onFileSave: a file saved in VS Code while Claude Code edits it (an accepted diff)
// arrives twice, once from the extension (the bus's file.saved, via "vscode") and once from Claude
// Code's PostToolUse hook (/notify). The gate lets the first through and drops the other source's
// report of the same file within the window; two saves from one source are two saves (the hook's
// cooldown is what spaces those).
const SAME_SAVE_WINDOW_MS = 2_000;
/** Files remembered; past it the oldest are forgotten (a save that late is a new save anyway). */
const FILES_REMEMBERED = 500;

export type SaveSource = "vscode" | "notify";

export interface SaveGate {
  /** True when this report is a new save, false when another source already reported it. */
  admit(file: string, via: SaveSource): boolean;
}

export function createSaveGate(opts: { now?: () => number; windowMs?: number } = {}): SaveGate {
  const now = opts.now ?? Date.now;
  const windowMs = opts.windowMs ?? SAME_SAVE_WINDOW_MS;
  const last = new Map<string, { via: SaveSource; at: number }>();
  return {
    admit(file, via) {
      const at = now();
      const before = last.get(file);
      if (before !== undefined && before.via !== via && at - before.at < windowMs) return false;
      last.delete(file);
      last.set(file, { via, at });
      for (const old of last.keys()) {
        if (last.size <= FILES_REMEMBERED) break;
        last.delete(old);
      }
      return true;
    },
  };
}
