// Reads an isError tool result the way a program does: the code from `_meta` (src/mcp/call/
// tool-result.ts, ERROR_META_KEY), the message and suggestion from the text the model reads
// (what failed and why, then on its last line what to do). The one place tests read error codes.

/** The `_meta` key the bridge writes an error's code under. */
export const ERROR_META_KEY = "claude-ide-bridge/error";

interface ResultLike {
  isError?: boolean | undefined;
  content?: readonly { type: string; text?: string | undefined }[];
  _meta?: Record<string, unknown> | undefined;
}

export interface ReadToolError {
  code: string;
  /** What failed and why: the text before its last line. */
  error: string;
  /** What to do next: the text's last line. */
  suggestion: string;
}

/** An error result's code; undefined for a result that is not an error. Throws for an error without one. */
export function toolErrorCode(result: ResultLike | Record<string, unknown>): string | undefined {
  const r = result as ResultLike;
  if (r.isError !== true) return undefined;
  const meta = r._meta?.[ERROR_META_KEY];
  const code = typeof meta === "object" && meta !== null && "code" in meta ? meta.code : undefined;
  if (typeof code !== "string") throw new Error(`an isError result without a code in _meta: ${JSON.stringify(result)}`);
  return code;
}

/** An isError result's code, message and suggestion; throws for a result that is not an error. */
export function readToolError(result: ResultLike | Record<string, unknown>): ReadToolError {
  const code = toolErrorCode(result);
  if (code === undefined) throw new Error(`expected isError, got ${JSON.stringify(result)}`);
  const text = ((result as ResultLike).content ?? []).map((b) => b.text ?? "").join("\n");
  const cut = text.lastIndexOf("\n");
  return cut < 0 ? { code, error: text, suggestion: "" } : { code, error: text.slice(0, cut), suggestion: text.slice(cut + 1) };
}
