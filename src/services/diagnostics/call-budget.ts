// An edit's checker runs inside the call that wrote the edit, and past the call's time limit its
// answer is never read: the call has already answered that it did not finish. So each checker run
// stops a little before that limit, and the check says what it did not cover, rather than
// outlasting the answer it belongs to (a rename on a 486-file repository at load 22 wrote its 21
// files and then ran its compiler checks past its 180 s limit).
import type { ToolContext } from "../../capabilities/context.ts";

/** Left for the answer once a checker stops: the errors' delta and the diff are rendered after it. */
const ANSWER_MARGIN_MS = 5_000;

export interface RunBudget {
  timeoutMs: number;
  /** The call's time limit, not the checker's own, bounds this run. */
  byCall: boolean;
}

/** How long a checker run may take: its own cap, or less when the call's limit comes first. */
export function runBudget(ctx: Pick<ToolContext, "deadline">, capMs: number): RunBudget {
  if (ctx.deadline === undefined) return { timeoutMs: capMs, byCall: false };
  const left = ctx.deadline - Date.now() - ANSWER_MARGIN_MS;
  return left < capMs ? { timeoutMs: Math.max(left, 1), byCall: true } : { timeoutMs: capMs, byCall: false };
}

/** When a part of the check that has no cap of its own (a server's diagnostics) must end: the call's limit less the answer's margin. */
export function stopByOf(ctx: Pick<ToolContext, "deadline">): number | undefined {
  return ctx.deadline === undefined ? undefined : ctx.deadline - ANSWER_MARGIN_MS;
}

/** Why a run that timed out under `budget` checked nothing, in the words of a "could not check" line. */
export function timedOutReason(budget: RunBudget, capMs: number): string {
  return budget.byCall
    ? "the call's time limit came before it finished (raise --timeout for projects this large)"
    : `it did not finish in ${capMs / 1000} s`;
}
