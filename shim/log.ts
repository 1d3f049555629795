// The shim's own log: stderr only, since stdout carries nothing but MCP messages (protocol.md B6).
import process from "node:process";

export interface ShimLog {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export function createShimLog(opts: { verbose: boolean; write?: (line: string) => void }): ShimLog {
  const write = opts.write ?? ((line: string) => void process.stderr.write(`${line}\n`));
  const emit = (level: string, message: string) => write(`[claude-ide-bridge shim] ${level === "info" ? "" : `${level}: `}${message}`);
  return {
    debug: (m) => {
      if (opts.verbose) emit("debug", m);
    },
    info: (m) => emit("info", m),
    warn: (m) => emit("warn", m),
    error: (m) => emit("error", m),
  };
}
