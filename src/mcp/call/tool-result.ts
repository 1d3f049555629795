// Turns what a handler returned (or threw) into an MCP CallToolResult. Expected failures are
// results, not JSON-RPC errors (seed ADR-0004 "tool errors as content"; MCP 2025-11-25). Every
// result respects the bridge's size cap (src/tools/platform/result-cap.ts).
import * as v from "valibot";
import type { ToolError, ToolErrorCode } from "../../errors.ts";
import type { ContentBlock, Tool } from "../../tools/platform/define-tool.ts";
import { capStructuredJson, capText } from "../../tools/platform/result-cap.ts";

export interface CallToolResult {
  [key: string]: unknown;
  content: ContentBlock[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

/** The `_meta` key of an isError result that carries its code, for clients and logs; the model reads the text. */
export const ERROR_META_KEY = "claude-ide-bridge/error";

/**
 * An isError result the model reads as plain sentences: what failed and why, then on the last
 * line what to do next. Not JSON: a JSON body reaches the model with its newlines escaped
 * (git's stderr became one long line of `\n`s). The code is for programs, so it goes in `_meta`.
 */
export function errorResult(code: ToolErrorCode, message: string, opts: { suggestion: string }): CallToolResult {
  const what = message.trimEnd();
  // The suggestion is the last line, so a reader can split it off; a newline in it is formatting only.
  const next = opts.suggestion.replace(/\s*\n\s*/g, " ").trim();
  return {
    content: [{ type: "text", text: next === "" ? what : `${what}\n${next}` }],
    isError: true,
    _meta: { [ERROR_META_KEY]: { code } },
  };
}

/** "ok", or the error code of an isError result (which this module wrote). */
export function outcomeOf(result: CallToolResult): string {
  if (!result.isError) return "ok";
  const error = result._meta?.[ERROR_META_KEY];
  return typeof error === "object" && error !== null && "code" in error && typeof error.code === "string" ? error.code : "error";
}

export function toolErrorResult(err: ToolError): CallToolResult {
  return errorResult(err.code, err.message, { suggestion: err.suggestion });
}

/** Shapes a handler's return value: structured for tools with an output schema, else plain text. */
export function successResult(tool: Tool, value: unknown, opts: { maxChars: number }): CallToolResult {
  const { maxChars } = opts;
  if (tool.output) {
    const checked = v.safeParse(tool.output, value);
    if (!checked.success) {
      // A bug in the tool, not the caller's fault: say so instead of sending non-conforming data.
      const issue = checked.issues[0];
      return errorResult(
        "internal_error",
        `${tool.name} produced output that does not match its outputSchema (${v.getDotPath(issue) ?? "value"}: ${issue.message})`,
        { suggestion: "Report this as a bridge bug." },
      );
    }
    const capped = capStructuredJson(checked.output as Record<string, unknown>, maxChars);
    if (capped === undefined) {
      return errorResult("result_too_large", `${tool.name}'s result does not fit the bridge's result cap of ${maxChars} characters`, {
        suggestion: "Narrow the request, or start the bridge with a larger --max-result-size.",
      });
    }
    structuredLengths.set(capped.value, capped.json.length);
    return { content: [{ type: "text", text: capped.json }], structuredContent: capped.value };
  }
  if (typeof value === "string") return { content: [{ type: "text", text: capText(value, maxChars) }] };
  if (isContentCarrier(value)) return { content: capBlocks(value.content, maxChars) };
  return { content: [{ type: "text", text: capText(JSON.stringify(value) ?? "null", maxChars) }] };
}

/** The JSON length of each structuredContent successResult wrote, measured when it was capped. */
const structuredLengths = new WeakMap<object, number>();
const STRUCTURED_KEY_CHARS = ',"structuredContent":'.length;

/**
 * JSON.stringify(result).length without serialising structuredContent again: its length was
 * measured when it was capped, and walking a large object a second time per call is the cost.
 */
export function resultJsonLength(result: CallToolResult): number {
  const structured = result.structuredContent;
  const known = structured === undefined ? undefined : structuredLengths.get(structured);
  if (known === undefined) return JSON.stringify(result).length;
  return JSON.stringify({ ...result, structuredContent: undefined }).length + STRUCTURED_KEY_CHARS + known;
}

function isContentCarrier(value: unknown): value is { content: ContentBlock[] } {
  return typeof value === "object" && value !== null && "content" in value && Array.isArray(value.content);
}

/** Text blocks share the cap, in order; other blocks pass (images are capped by the client). */
function capBlocks(blocks: readonly ContentBlock[], maxChars: number): ContentBlock[] {
  let left = maxChars;
  const out: ContentBlock[] = [];
  for (const block of blocks) {
    if (block.type !== "text") {
      out.push(block);
      continue;
    }
    out.push({ type: "text", text: capText(block.text, Math.max(0, left)) });
    left -= block.text.length;
    if (left <= 0) break;
  }
  return out;
}
