// Runs one tools/call: argument validation, gates (extension, probes), the handler the call gets
// (the extension's or the headless one), timeout and cancellation, and result shaping. Everything
// here ends as a CallToolResult; rate limits are the session's (src/mcp/sessions/session.ts).
import * as v from "valibot";
import { errorMessage, ToolError } from "../../errors.ts";
import type { Logger } from "../../log.ts";
import type { CallScope, ToolCatalog, ToolContext } from "../../capabilities/context.ts";
import type { Tool } from "../../tools/platform/define-tool.ts";
import { BACKEND_META_KEY, routeCall } from "../../tools/platform/route-call.ts";
import { jsonSchemaOf } from "../../tools/platform/json-schema.ts";
import { describeArgumentIssues, type ArgumentShape } from "./argument-errors.ts";
import { closestName } from "./closest-name.ts";
import { errorResult, successResult, toolErrorResult, type CallToolResult } from "./tool-result.ts";

/** What the session hands over for one call. */
interface ToolCallRequest {
  tool: Tool;
  /** Arguments already checked by validateArguments. */
  input: unknown;
  /** Aborted by notifications/cancelled or session close. */
  signal: AbortSignal;
  /**
   * The controller of `signal` when the caller made it for this call alone: the timeout aborts it,
   * instead of a second controller chained to it (each AbortSignal a call makes costs a no-op call
   * about a tenth of its server CPU on Node).
   */
  controller?: AbortController;
  /** Builds the handler's context around the call's combined signal. */
  makeContext(scope: Pick<CallScope, "signal" | "deadline">): ToolContext;
  /** --timeout; a tool's own timeoutMs may raise it. */
  timeoutMs: number;
  maxResultChars: number;
  logger: Logger;
}

export function validateArguments(tool: Tool, args: unknown): { ok: true; value: unknown } | { ok: false; result: CallToolResult } {
  const given = args ?? {};
  const parsed = Array.isArray(given) ? undefined : v.safeParse(tool.input, given);
  if (parsed?.success) return { ok: true, value: parsed.output };
  const shape = argumentShape(tool);
  const why = parsed === undefined ? "the arguments must be a JSON object, got an array" : describeArgumentIssues(parsed.issues, shape);
  return {
    ok: false,
    result: errorResult("invalid_arguments", `Invalid arguments for ${tool.name}: ${why}`, {
      suggestion: `Call ${tool.name} again with the arguments fixed as said.`,
    }),
  };
}

const shapes = new WeakMap<Tool, ArgumentShape>();

function argumentShape(tool: Tool): ArgumentShape {
  let shape = shapes.get(tool);
  if (shape === undefined) {
    const schema = jsonSchemaOf(tool.input);
    const properties = typeof schema.properties === "object" && schema.properties !== null ? Object.keys(schema.properties) : [];
    const required = Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === "string") : [];
    shape = { names: properties, required: new Set(required) };
    shapes.set(tool, shape);
  }
  return shape;
}

export function unknownToolResult(name: string, catalog: ToolCatalog): CallToolResult {
  const names = catalog.list().map((t) => t.name);
  const near = closestName(name, names);
  const hint = near !== undefined ? `Did you mean ${near}? ` : "";
  return errorResult("unknown_tool", `Unknown tool: ${name}`, {
    suggestion: `${hint}Call tools/list (or getToolCapabilities) for the tools this bridge offers.`,
  });
}

export async function runToolCall(req: ToolCallRequest): Promise<CallToolResult> {
  const { tool } = req;
  const timeoutMs = Math.max(req.timeoutMs, tool.timeoutMs ?? 0);
  const limit = callSignal(req.signal, timeoutMs, req.controller);
  const { signal } = limit;
  try {
    const ctx = req.makeContext({ signal, deadline: Date.now() + timeoutMs });
    const route = routeCall(tool);
    const missing = await missingProbe(tool, ctx);
    if (missing !== undefined) {
      return errorResult("probe_missing", `${tool.name} needs \`${missing}\`, which is not on the bridge's PATH`, {
        suggestion: `Install ${missing}, make sure the bridge's PATH has it, and restart the bridge.`,
      });
    }
    // A tool that writes may have written before the answer was cut, or still be writing (a
    // handler is told to stop, not killed): the answer says so rather than read as "nothing done".
    const writes = tool.annotations?.readOnlyHint !== true;
    const mayHaveWritten = writes
      ? " It may have changed files before it stopped: check what changed (getGitStatus, a diff) before calling it again."
      : "";
    const aborted = new Promise<CallToolResult>((resolve) => {
      limit.onAbort(() =>
        resolve(
          limit.timedOut()
            ? errorResult("timeout", `${tool.name} did not finish within ${timeoutMs} ms.${mayHaveWritten}`, {
                suggestion: "Narrow the request, or raise --timeout.",
              })
            : errorResult("cancelled", `${tool.name} was cancelled.${mayHaveWritten}`, {
                suggestion: "Call it again if the result is still needed.",
              }),
        ),
      );
    });
    const run = route.run(req.input, ctx).then(
      (value) => successResult(tool, value, { maxChars: req.maxResultChars }),
      (err: unknown) => failureResult(tool, err, req.logger),
    );
    const backend = (result: CallToolResult): CallToolResult => {
      const answered = route.backend();
      return answered === undefined ? result : { ...result, _meta: { ...result._meta, [BACKEND_META_KEY]: answered } };
    };
    return backend(await Promise.race([run, aborted]));
  } finally {
    limit.release();
  }
}

/**
 * The call's signal: aborted when the caller's is (cancellation, the session closing), with its
 * reason, or after `timeoutMs` with a TimeoutError (what plugins look for). One controller and a
 * timer cleared when the call ends, rather than AbortSignal.timeout + AbortSignal.any: on Node those
 * kept a timer per call alive for the whole timeout and cost a no-op call a tenth of its server CPU
 * (bench/lsp-profile.mjs, CIB_PROFILE_CALL=noop). When the caller hands over the controller it made
 * for this call (`own`), that one is the call's: no second controller, no listener on the caller's.
 */
function callSignal(
  caller: AbortSignal,
  timeoutMs: number,
  own?: AbortController,
): { signal: AbortSignal; timedOut(): boolean; onAbort(fn: () => void): void; release(): void } {
  const controller = own !== undefined && own.signal === caller ? own : new AbortController();
  const chained = controller !== own;
  const signal = controller.signal;
  let timedOut = false;
  const fromCaller = () => controller.abort(caller.reason);
  const timer = setTimeout(() => {
    if (signal.aborted) return;
    timedOut = true;
    controller.abort(new DOMException(`the call did not finish within ${timeoutMs} ms`, "TimeoutError"));
  }, timeoutMs);
  if (chained) {
    if (caller.aborted) fromCaller();
    else caller.addEventListener("abort", fromCaller, { once: true });
  }
  let listener: (() => void) | undefined;
  return {
    signal,
    timedOut: () => timedOut,
    onAbort(fn) {
      if (signal.aborted) return fn();
      listener = fn;
      signal.addEventListener("abort", fn, { once: true });
    },
    release() {
      clearTimeout(timer);
      if (chained) caller.removeEventListener("abort", fromCaller);
      if (listener !== undefined) signal.removeEventListener("abort", listener);
    },
  };
}

async function missingProbe(tool: Tool, ctx: ToolContext): Promise<string | undefined> {
  for (const command of tool.requires.probes ?? []) {
    if (!(await ctx.probes.get(command)).available) return command;
  }
  return undefined;
}

function failureResult(tool: Tool, err: unknown, logger: Logger): CallToolResult {
  if (err instanceof ToolError) return toolErrorResult(err);
  logger.error(`tool ${tool.name} failed unexpectedly`, { error: errorMessage(err) });
  return errorResult("internal_error", `${tool.name} failed: ${errorMessage(err)}`, {
    suggestion: "This is likely a bridge bug; retry, and report it if it persists.",
  });
}
