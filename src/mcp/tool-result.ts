// Turns what a handler returned (or threw) into an MCP CallToolResult. Expected failures are
// results, not JSON-RPC errors (seed ADR-0004 "tool errors as content"; MCP 2025-11-25).
import * as v from "valibot";
import { ToolError, type ToolErrorCode } from "../errors.ts";
import type { ContentBlock, Tool } from "../tools/define-tool.ts";

export interface CallToolResult {
  [key: string]: unknown;
  content: ContentBlock[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

export function errorResult(code: ToolErrorCode, message: string, suggestion?: string): CallToolResult {
  const body: Record<string, string> = { error: message, code };
  if (suggestion) body.suggestion = suggestion;
  return { content: [{ type: "text", text: JSON.stringify(body) }], isError: true };
}

export function toolErrorResult(err: ToolError): CallToolResult {
  return errorResult(err.code, err.message, err.suggestion);
}

/** Shapes a handler's return value; `maxChars` caps plain text (structured output is kept whole). */
export function successResult(tool: Tool, value: unknown, maxChars: number): CallToolResult {
  if (tool.output) {
    const checked = v.safeParse(tool.output, value);
    if (!checked.success) {
      // A bug in the tool, not the caller's fault: say so instead of sending non-conforming data.
      const issue = checked.issues[0];
      return errorResult("internal_error", `${tool.name} produced output that does not match its outputSchema (${v.getDotPath(issue) ?? "value"}: ${issue.message})`, "Report this as a bridge bug.");
    }
    const structured = checked.output as Record<string, unknown>;
    return { content: [{ type: "text", text: JSON.stringify(structured) }], structuredContent: structured };
  }
  if (typeof value === "string") return { content: [{ type: "text", text: capText(value, maxChars) }] };
  if (isContentCarrier(value)) {
    return { content: value.content.map((block) => (block.type === "text" ? { type: "text", text: capText(block.text, maxChars) } : block)) };
  }
  return { content: [{ type: "text", text: capText(JSON.stringify(value) ?? "null", maxChars) }] };
}

function isContentCarrier(value: unknown): value is { content: ContentBlock[] } {
  return typeof value === "object" && value !== null && "content" in value && Array.isArray(value.content);
}

function capText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  return `${text.slice(0, maxChars)}\n[truncated: ${text.length - maxChars} of ${text.length} characters omitted; narrow the request (a smaller range or more specific pattern) to see the rest]`;
}

/** A readable, bounded list of valibot issues for an invalid_arguments result. */
export function describeIssues(issues: readonly v.BaseIssue<unknown>[]): string {
  return issues
    .slice(0, 5)
    .map((issue) => `${v.getDotPath(issue) ?? "arguments"}: ${issue.message}`)
    .join("; ");
}
