// Text results of git (diffs, blame, logs of patches) capped to what a result may carry, with a
// note saying that it was cut and how to ask for less.
import type { RunResult } from "../../capabilities/exec/exec.ts";
import type { ToolContext } from "../../capabilities/context.ts";

/** Room kept for the note under the result cap. */
const NOTE_ROOM = 300;

/** Bytes to let git write for a text result: the result cap (a character is at least a byte). */
export function textBudget(ctx: Pick<ToolContext, "settings">, limit?: number): number {
  return Math.max(1024, Math.min(limit ?? Number.POSITIVE_INFINITY, ctx.settings.maxResultChars - NOTE_ROOM));
}

/** stdout, or `empty` when there is none; cut output ends with a note naming `narrower`. */
export function textResult(result: Pick<RunResult, "stdout" | "stdoutTruncated">, opts: { empty: string; narrower: string }): string {
  if (result.stdout.trim() === "") return opts.empty;
  if (!result.stdoutTruncated) return result.stdout;
  const cut = result.stdout.lastIndexOf("\n");
  return `${cut > 0 ? result.stdout.slice(0, cut + 1) : result.stdout}\n[output cut at ${result.stdout.length} characters; ${opts.narrower}]`;
}
