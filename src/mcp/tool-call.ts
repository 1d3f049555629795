// Runs one tools/call: argument validation, gates (rate, extension, probe), timeout and
// cancellation, progress, and result shaping. Everything here ends as a CallToolResult.
import * as v from "valibot";
import { errorMessage, ToolError } from "../errors.ts";
import type { Logger } from "../log.ts";
import type { ToolCatalog, ToolContext } from "../tools/context.ts";
import type { Tool } from "../tools/define-tool.ts";
import { describeIssues, errorResult, successResult, toolErrorResult, type CallToolResult } from "./tool-result.ts";
import type { RateLimiter } from "./rate-limiter.ts";

/** What the session hands over for one call. */
export interface ToolCallRequest {
  tool: Tool;
  args: unknown;
  /** Aborted by notifications/cancelled or session close. */
  signal: AbortSignal;
  /** Builds the handler's context around the call's combined signal. */
  makeContext(signal: AbortSignal): ToolContext;
  timeoutMs: number;
  maxResultChars: number;
  toolLimiter: RateLimiter;
  logger: Logger;
}

export function validateArguments(tool: Tool, args: unknown): { ok: true; value: unknown } | { ok: false; result: CallToolResult } {
  const parsed = v.safeParse(tool.input, args ?? {});
  if (parsed.success) return { ok: true, value: parsed.output };
  return {
    ok: false,
    result: errorResult("invalid_arguments", `Invalid arguments for ${tool.name}: ${describeIssues(parsed.issues)}`, "Check the arguments against the tool's inputSchema (tools/list) and call again."),
  };
}

export function unknownToolResult(name: string, catalog: ToolCatalog): CallToolResult {
  const lower = name.toLowerCase();
  const near = catalog
    .list()
    .map((t) => t.name)
    .filter((known) => known.toLowerCase().includes(lower) || lower.includes(known.toLowerCase()))
    .slice(0, 3);
  const hint = near.length > 0 ? `Did you mean ${near.join(", ")}? ` : "";
  return errorResult("unknown_tool", `Unknown tool: ${name}`, `${hint}Call tools/list (or getToolCapabilities) for the tools this bridge offers.`);
}

export async function runToolCall(req: ToolCallRequest, input: unknown): Promise<CallToolResult> {
  const { tool } = req;
  if (!req.toolLimiter.tryTake()) {
    const seconds = Math.ceil(req.toolLimiter.retryAfterMs() / 1000);
    return errorResult("tool_rate_limited", `Tool call rate limit of ${req.toolLimiter.limit}/min reached`, `Wait ${seconds} s, or start the bridge with a higher --tool-rate-limit.`);
  }
  const timeout = AbortSignal.timeout(req.timeoutMs);
  const signal = AbortSignal.any([req.signal, timeout]);
  const ctx = req.makeContext(signal);
  const gate = await checkRequirements(tool, ctx);
  if (gate) return gate;

  let onAbort: (() => void) | undefined;
  const aborted = new Promise<CallToolResult>((resolve) => {
    onAbort = () =>
      resolve(
        timeout.aborted && !req.signal.aborted
          ? errorResult("timeout", `${tool.name} did not finish within ${req.timeoutMs} ms`, "Narrow the request, or raise --timeout.")
          : errorResult("cancelled", `${tool.name} was cancelled`),
      );
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
  });
  const run = tool.handler(input, ctx).then(
    (value) => successResult(tool, value, req.maxResultChars),
    (err: unknown) => failureResult(tool, err, req.logger),
  );
  try {
    return await Promise.race([run, aborted]);
  } finally {
    if (onAbort) signal.removeEventListener("abort", onAbort);
  }
}

async function checkRequirements(tool: Tool, ctx: ToolContext): Promise<CallToolResult | undefined> {
  if (tool.requires.extension === "required" && !ctx.extension.connected) {
    return errorResult("extension_required", `${tool.name} needs the VS Code extension, which is not connected`, "Install and enable the claude-ide-bridge VS Code extension, or use getToolCapabilities to see what works without it.");
  }
  if (tool.requires.probe) {
    const probe = await ctx.probes.get(tool.requires.probe);
    if (!probe.available) {
      return errorResult("probe_missing", `${tool.name} needs \`${tool.requires.probe}\`, which is not on PATH`, `Install ${tool.requires.probe} and restart the bridge.`);
    }
  }
  return undefined;
}

function failureResult(tool: Tool, err: unknown, logger: Logger): CallToolResult {
  if (err instanceof ToolError) return toolErrorResult(err);
  logger.error(`tool ${tool.name} failed unexpectedly`, { error: errorMessage(err) });
  return errorResult("internal_error", `${tool.name} failed: ${errorMessage(err)}`, "This is likely a bridge bug; retry, and report it if it persists.");
}
