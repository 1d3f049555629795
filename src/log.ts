// The bridge's own log. stderr only: stdout belongs to the stdio shim's MCP stream, and Claude
// Code treats stderr as plain logs. `console.error` is stderr on Node, Bun and Deno alike.
type LocalLevel = "debug" | "info" | "warn" | "error";

export interface Logger {
  /** False when debug() drops everything, so callers can skip building what it would log. */
  readonly debugEnabled?: boolean;
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export function createLogger(opts: { verbose: boolean; jsonl: boolean; write?: (line: string) => void }): Logger {
  const write = opts.write ?? ((line: string) => console.error(line));
  const emit = (level: LocalLevel, message: string, fields?: Record<string, unknown>) => {
    if (level === "debug" && !opts.verbose) return;
    if (opts.jsonl) {
      write(JSON.stringify({ ts: new Date().toISOString(), level, msg: message, ...fields }));
      return;
    }
    const extra = fields && Object.keys(fields).length > 0 ? ` ${JSON.stringify(fields)}` : "";
    write(`[claude-ide-bridge] ${level === "info" ? "" : `${level}: `}${message}${extra}`);
  };
  return {
    debugEnabled: opts.verbose,
    debug: (m, f) => emit("debug", m, f),
    info: (m, f) => emit("info", m, f),
    warn: (m, f) => emit("warn", m, f),
    error: (m, f) => emit("error", m, f),
  };
}

export const silentLogger: Logger = { debugEnabled: false, debug() {}, info() {}, warn() {}, error() {} };
