// The three kinds of failure (DESIGN.md, "Errors"). Only ProtocolError crosses the wire as a
// JSON-RPC error; ToolError becomes an `isError` tool result; BridgeError stays local.
import { RuntimeError, type SystemErrorCode } from "./ports/errors.ts";

/** JSON-RPC error codes: the standard ones, MCP's, and the bridge's own. */
export const RpcCode = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  /** Server-defined: transport-level refusals (bad headers, not initialized over HTTP). */
  serverError: -32000,
  /** MCP Streamable HTTP: unknown or terminated session. */
  sessionNotFound: -32001,
  /** MCP: resource not found. */
  resourceNotFound: -32002,
  /** The original bridge's code for "too many requests" (seed ARCHITECTURE.md). */
  rateLimited: -32004,
  /** MCP 2026-07-28: HTTP headers missing or not matching the body. */
  headerMismatch: -32020,
  /** MCP 2026-07-28: the request needs a client capability its `_meta` did not declare. */
  missingClientCapability: -32021,
  /** MCP 2026-07-28: the request's protocol version is not one this server speaks. */
  unsupportedProtocolVersion: -32022,
} as const;
export type RpcCode = (typeof RpcCode)[keyof typeof RpcCode];

export class ProtocolError extends Error {
  /** The JSON-RPC error's `data` member, when there is more to say than the message. */
  readonly data: unknown;

  constructor(
    readonly code: RpcCode,
    message: string,
    opts: { data?: unknown } = {},
  ) {
    super(message);
    this.name = this.constructor.name;
    this.data = opts.data;
  }
}

export type ToolErrorCode =
  | "invalid_arguments"
  | "unknown_tool"
  | "invalid_path"
  | "outside_workspace"
  | "file_not_found"
  | "not_a_file"
  | "not_a_directory"
  | "file_too_large"
  | "binary_file"
  | "permission_denied"
  | "timeout"
  | "cancelled"
  | "tool_rate_limited"
  | "probe_missing"
  | "extension_required"
  | "extension_unavailable"
  | "result_too_large"
  | "command_refused"
  | "address_blocked"
  | "invalid_url"
  | "request_failed"
  | "not_detected"
  | "unparsable_output"
  | "file_changed"
  | "tool_failed"
  | "internal_error"
  // A built-in toolset whose modules could not be imported (src/startup/lazy-toolsets.ts).
  | "toolset_not_loaded"
  // git and GitHub: what git or gh refused, named so a model can tell a conflict from a typo.
  | "not_a_repository"
  | "invalid_ref"
  | "git_failed"
  | "merge_conflict"
  | "push_rejected"
  | "branch_protected"
  | "nothing_to_commit"
  | "nothing_to_stash"
  | "no_commits"
  | "operation_in_progress"
  | "nothing_in_progress"
  | "github_auth_required"
  | "github_not_found"
  | "github_failed"
  // Files, edits, search and notes:
  | "file_exists"
  | "match_not_found"
  | "match_ambiguous"
  | "invalid_edit"
  | "transaction_not_found"
  | "plan_not_found"
  | "watch_not_found"
  | "limit_reached"
  // Language servers:
  | "no_language_server"
  | "not_supported"
  | "language_server_error"
  | "symbol_not_found"
  | "code_action_not_found"
  // Debugger:
  | "debug_session_not_found"
  | "debug_adapter_error"
  // VS Code through the extension:
  | "terminal_not_found"
  // Claude Code tasks:
  | "claude_unavailable"
  | "task_not_found";

/**
 * An expected failure of a tool, answered as an `isError` result. The suggestion is required: the
 * reader is a model, and a failure without a next step makes it retry blindly.
 */
export class ToolError extends Error {
  readonly suggestion: string;
  constructor(
    readonly code: ToolErrorCode,
    message: string,
    opts: { suggestion: string; cause?: unknown },
  ) {
    super(message, { cause: opts.cause });
    this.name = this.constructor.name;
    this.suggestion = opts.suggestion;
  }
}

type BridgeErrorCode = "config_invalid" | "usage" | "port_in_use" | "lock_failed" | "startup_failed";

export class BridgeError extends Error {
  constructor(
    readonly code: BridgeErrorCode,
    message: string,
    opts: { cause?: unknown } = {},
  ) {
    super(message, { cause: opts.cause });
    this.name = this.constructor.name;
  }
}

/** The POSIX code of a failure of the Runtime port (its adapters throw RuntimeError), or "OTHER". */
export function fsErrorCode(err: unknown): SystemErrorCode {
  return err instanceof RuntimeError ? err.code : "OTHER";
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
