/**
 * A failed LSP request: the server's JSON-RPC error code (-32601 method not found, -32801 content
 * modified, -32800 cancelled...), or "closed" when the server went away before it answered.
 */
export class LspRequestError extends Error {
  constructor(
    readonly code: number | "closed",
    message: string,
  ) {
    super(message);
    this.name = this.constructor.name;
  }
}

/** Answers one server->client request; what it returns (or throws) goes back to the server. */
type LspRequestHandler = (params: unknown, signal: AbortSignal) => unknown;

/**
 * One language server's JSON-RPC link over its stdio, framed by the runtime adapter (vscode-jsonrpc),
 * so the core manages servers, documents and tools without knowing how bytes move.
 */
export interface LspConnection {
  readonly pid: number | undefined;
  /** Rejects with LspRequestError; aborting `signal` sends $/cancelRequest and rejects with code -32800. */
  request(method: string, params: unknown, signal?: AbortSignal): Promise<unknown>;
  notify(method: string, params: unknown): Promise<void>;
  /** One handler per method; a later one replaces it. */
  onNotification(method: string, handler: (params: unknown) => void): void;
  /** Requests without a handler are answered with -32601 (method not found). */
  onRequest(method: string, handler: LspRequestHandler): void;
  /** The last few KB the server wrote to stderr, for an error message when it dies. */
  stderrTail(): string;
  /** Kills the server (its whole process group) at once; `exited` resolves after. */
  kill(): void;
  /** Stops reading and writing, and kills the server if it is still running. Idempotent. */
  close(): Promise<void>;
  /** Resolves with the exit code once the server process has ended, whoever ended it. */
  readonly exited: Promise<number>;
}

/** A file inside one of the bridge's own installed dependencies, e.g. a language server it ships. */
export interface BundledFile {
  package: string;
  /** A `bin` entry of the package, or a path inside it; `{platform}` and `{arch}` are the OS's ("linux", "x64"). */
  bin?: string;
  path?: string;
}

export interface LanguageServerLauncher {
  /** Spawns `command` in its own process group with piped stdio and frames LSP over it. */
  start(command: string, args: string[], opts: { cwd: string; env?: Record<string, string> }): LspConnection;
  /** The absolute path of a bundled file when it is installed, else undefined. */
  bundled(file: BundledFile): Promise<string | undefined>;
}
