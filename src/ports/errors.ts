// The port's one error type: every failure of the Runtime's fs, spawn and fetch, by its POSIX name.
/** The OS failures the core tells apart, by their POSIX names; adapters map anything else to OTHER. */
export const SYSTEM_ERROR_CODES = [
  "ENOENT",
  "EEXIST",
  "EACCES",
  "EPERM",
  "ENOTDIR",
  "EISDIR",
  "ELOOP",
  "ENAMETOOLONG",
  "ENOTEMPTY",
  "EXDEV",
  "EBUSY",
  "EMFILE",
  "ENOSPC",
  "EROFS",
  "EINVAL",
  "EAGAIN",
  "EPIPE",
  "EADDRINUSE",
  // Network failures of fetchPinned; ECANCELED is an abort by the caller's signal.
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ECANCELED",
] as const;
export type SystemErrorCode = (typeof SYSTEM_ERROR_CODES)[number] | "OTHER";

/**
 * Every failure of the port's fs and spawn is a RuntimeError: the adapters translate their
 * runtime's own errors, so the core never inspects Node's, Bun's or Deno's error shapes.
 */
export class RuntimeError extends Error {
  constructor(
    readonly code: SystemErrorCode,
    message: string,
    opts: { cause?: unknown } = {},
  ) {
    super(message, { cause: opts.cause });
    this.name = this.constructor.name;
  }
}
