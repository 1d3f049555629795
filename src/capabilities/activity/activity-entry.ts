// What the activity log holds: finished tool calls and lifecycle events (sessions, the VS Code
// extension, language servers, rate limits, and whatever other areas append: a plugin's or an
// automation hook's decision). Metadata only: never arguments, results, file content or tokens.

/** A detail value: short scalars only, so nothing bulky or nested (file content) can slip in. */
export type DetailValue = string | number | boolean | null;

export interface ToolCallEntry {
  readonly kind: "call";
  /** Increases by one per entry for the life of the log (persisted history included). */
  readonly seq: number;
  /** Epoch ms when the call finished. */
  readonly at: number;
  readonly tool: string;
  readonly toolset: string | undefined;
  readonly session: string;
  /** The MCP client's name from initialize (clientInfo.name), when known. */
  readonly client: string | undefined;
  readonly durationMs: number;
  /** "ok", or the error code of the isError result. */
  readonly outcome: string;
  /** Characters of the result as JSON, when known. */
  readonly resultChars: number | undefined;
}

export interface LifecycleEntry {
  readonly kind: "event";
  readonly seq: number;
  readonly at: number;
  /** Who appended it: "sessions", "extension", "lsp", "limits", or another area's name ("automation"). */
  readonly source: string;
  /** What happened, dotted: "session.opened", "extension.disconnected", "lsp.crashed", "rate.limited". */
  readonly event: string;
  readonly detail: Readonly<Record<string, DetailValue>>;
}

export type ActivityEntry = ToolCallEntry | LifecycleEntry;

/** A tool call as the bus announces it, before it gets its place in the log. */
export interface CallRecord {
  tool: string;
  session: string;
  durationMs: number;
  outcome: string;
  resultChars?: number;
}

const MAX_DETAIL_KEYS = 12;
const MAX_TEXT = 200;
/** Keys whose values are never kept, whoever appends them. */
const SECRET_KEY = /token|secret|password|passwd|authorization|cookie|credential|api[-_]?key|content|text|body/i;

/**
 * The detail as the log keeps it: at most 12 scalar fields, text clipped to 200 characters, and
 * fields named like a secret or like file content dropped, so an append can never leak them.
 */
export function cleanDetail(detail: Readonly<Record<string, unknown>> | undefined): Record<string, DetailValue> {
  const out: Record<string, DetailValue> = {};
  if (detail === undefined) return out;
  for (const [key, value] of Object.entries(detail)) {
    if (Object.keys(out).length >= MAX_DETAIL_KEYS) break;
    if (SECRET_KEY.test(key)) continue;
    if (typeof value === "string") out[key] = value.length > MAX_TEXT ? `${value.slice(0, MAX_TEXT)}…` : value;
    else if (typeof value === "number" && Number.isFinite(value)) out[key] = value;
    else if (typeof value === "boolean" || value === null) out[key] = value;
  }
  return out;
}
