// The progress and log callbacks a tool handler gets (ctx.progress, ctx.log), bound to where
// the request's notifications go.
import * as v from "valibot";
import type { Logger } from "../../log.ts";
import type { ToolContext } from "../../capabilities/context.ts";
import type { Params } from "../protocol/jsonrpc.ts";
import { passesLevel, type LogLevel } from "../../capabilities/log-levels.ts";

type Send = (method: string, params: Params) => void;

const ProgressToken = v.union([v.string(), v.number()]);

/** notifications/progress for the request's `_meta.progressToken`; a no-op without one. */
export function progressNotifier(meta: unknown, send: Send): ToolContext["progress"] {
  const token = typeof meta === "object" && meta !== null && "progressToken" in meta ? meta.progressToken : undefined;
  if (!v.is(ProgressToken, token)) return () => {};
  let last = Number.NEGATIVE_INFINITY;
  return (progress, opts) => {
    if (!(progress > last)) return; // the spec requires increasing values
    last = progress;
    const params: Params = { progressToken: token, progress };
    if (opts?.total !== undefined) params.total = opts.total;
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
