// The progress and log callbacks a tool handler gets (ctx.progress, ctx.log), bound to where
// the request's notifications go.
import * as v from "valibot";
import type { Logger } from "../../log.ts";
import type { ToolContext } from "../../capabilities/context.ts";
import type { Params } from "../protocol/jsonrpc.ts";
import { passesLevel, type LogLevel } from "../../capabilities/log-levels.ts";

type Send = (method: string, params: Params) => void;

const ProgressToken = v.union([v.string(), v.number()]);

/** A count that did not increase is sent this far above the last one, when it carries a message. */
const MESSAGE_STEP = 0.001;

/**
 * notifications/progress for the request's `_meta.progressToken`; a no-op without one. The spec
 * requires increasing values, but a call's phases count from 0 again (each compiler project, then
 * each server's files) and a server starting mid-call reports 0: such a message is sent just above
 * the last value, without its total (which would misstate it), rather than lost. A count alone
 * that does not increase says nothing new and is dropped.
 */
export function progressNotifier(meta: unknown, send: Send): ToolContext["progress"] {
  const token = typeof meta === "object" && meta !== null && "progressToken" in meta ? meta.progressToken : undefined;
  if (!v.is(ProgressToken, token)) return () => {};
  let last = Number.NEGATIVE_INFINITY;
  return (progress, opts) => {
    const increases = progress > last;
    if (!increases && opts?.message === undefined) return;
    last = increases ? progress : last + MESSAGE_STEP;
    const params: Params = { progressToken: token, progress: last };
    if (increases && opts?.total !== undefined) params.total = opts.total;
    if (opts?.message !== undefined) params.message = opts.message;
    send("notifications/progress", params);
  };
}

/** notifications/message at or above the client's logging/setLevel threshold; always logged locally. */
export function logNotifier(name: string, opts: { threshold: () => LogLevel | undefined; send: Send; local: Logger }): ToolContext["log"] {
  const { threshold, send, local } = opts;
  return (level, message, data) => {
    local.debug(`[${name}] ${message}`);
    const min = threshold();
    if (!min || !passesLevel(level, min)) return;
    send("notifications/message", { level, logger: name, data: data === undefined ? message : { message, data } });
  };
}
