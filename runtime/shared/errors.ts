// Node-style errors (Node, and Bun's and Deno's node: modules) into the port's RuntimeError, so the
// core sees one shape whatever the runtime (src/ports/errors.ts, RuntimeError).
import { RuntimeError, SYSTEM_ERROR_CODES, type SystemErrorCode } from "../../src/ports/errors.ts";

const KNOWN: ReadonlySet<string> = new Set(SYSTEM_ERROR_CODES);

/** The `.code` of a Node-style error, when it has a string one. */
export function nodeErrorCode(err: unknown): string | undefined {
  return typeof err === "object" && err !== null && "code" in err && typeof err.code === "string" ? err.code : undefined;
}

export function toRuntimeError(err: unknown): RuntimeError {
  if (err instanceof RuntimeError) return err;
  const raw = nodeErrorCode(err);
  const code: SystemErrorCode = raw !== undefined && KNOWN.has(raw) ? (raw as SystemErrorCode) : "OTHER";
  return new RuntimeError(code, err instanceof Error ? err.message : String(err), { cause: err });
}

/** The same async function, failing with RuntimeError only. */
export function translated<A extends unknown[], R>(fn: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  return async (...args) => {
    try {
      return await fn(...args);
    } catch (err) {
      throw toRuntimeError(err);
    }
  };
}
