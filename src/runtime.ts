// The Runtime port: everything the core (src/) needs from Node, Bun or Deno, passed in explicitly.
// It belongs to the core (arrows run runtime/ -> src/ only): runtime/ implements it, and no file in
// src/ imports runtime/ (test/unit/one-rule.test.ts). Web-standard types only.
import type { UpgradeWebSocket, WSContext } from "hono/ws";

export type FetchHandler = (request: Request, env?: unknown) => Response | Promise<Response>;

export interface Served {
  /** The port actually bound (meaningful when 0 was asked for). */
  readonly port: number;
  readonly hostname: string;
  /** Stops accepting, closes open sockets, resolves when the listener is gone. */
  close(): Promise<void>;
}

export interface ServeOptions {
  hostname: string;
  port: number;
}

export interface FileStat {
  isFile: boolean;
  isDirectory: boolean;
  isSymbolicLink: boolean;
  size: number;
  mtimeMs: number;
  /** Permission bits and file type, as stat(2) gives them. */
  mode: number;
  /** Hard link count. */
  nlink: number;
  /** Device and inode: together they name the file, whatever path reached it. */
  dev: number;
  ino: number;
}

export interface DirEntry {
  name: string;
  isFile: boolean;
  isDirectory: boolean;
  isSymbolicLink: boolean;
}

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

export interface Fs {
  readFile(path: string): Promise<Uint8Array>;
  readTextFile(path: string): Promise<string>;
  /** Writes through a temporary file and a rename, so readers never see half a file. */
  writeFileAtomic(path: string, data: string | Uint8Array, opts?: { mode?: number }): Promise<void>;
  /** O_CREAT|O_EXCL|O_WRONLY with the given mode: fails with EEXIST, never follows a symlink. */
  createExclusive(path: string, data: string | Uint8Array, mode: number): Promise<void>;
  stat(path: string): Promise<FileStat>;
  lstat(path: string): Promise<FileStat>;
  realpath(path: string): Promise<string>;
  readdir(path: string): Promise<DirEntry[]>;
  mkdir(path: string, opts?: { recursive?: boolean; mode?: number }): Promise<void>;
  chmod(path: string, mode: number): Promise<void>;
  rm(path: string, opts?: { recursive?: boolean; force?: boolean }): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  /**
   * Opens a file for reading without following a symlink in its last component (ELOOP) and without
   * blocking on a FIFO or device (O_NONBLOCK), so the caller can check what it got with stat()
   * before reading anything. The workspace jail builds on this (src/security/checked-open.ts).
   */
  openFile(path: string): Promise<FileHandle>;
  /** Opens a directory (O_DIRECTORY, not following a symlink) to list it and change entries in it. */
  openDirectory(path: string): Promise<DirHandle>;
  /**
   * Watches a file or directory (inotify, FSEvents...). A missing path throws ENOENT at once.
   * The watcher never keeps the process alive; close() is idempotent and stops all events.
   */
  watch(path: string, onEvent: (event: WatchEvent) => void, opts?: WatchOptions): Watcher;
}

/** An open file, used through its descriptor: what was opened, not whatever the path names now. */
export interface FileHandle {
  /** fstat(2) of the descriptor. */
  stat(): Promise<FileStat>;
  /** Up to `length` bytes from byte `position`; fewer (none at all) at the end of the file. */
  read(position: number, length: number): Promise<Uint8Array>;
  /** The absolute path the OS has for the descriptor (Linux: /proc/self/fd); undefined where it cannot tell. */
  realPath(): Promise<string | undefined>;
  /** Idempotent. */
  close(): Promise<void>;
}

/**
 * An open directory. Every operation is relative to the descriptor, so a parent directory swapped
 * for a symlink after the open cannot redirect it (on Linux through /proc/self/fd, which makes a
 * path behave like openat(2)). `name` is always a single path component.
 */
export interface DirHandle {
  stat(): Promise<FileStat>;
  realPath(): Promise<string | undefined>;
  /** The entries of the opened directory. */
  list(): Promise<DirEntry[]>;
  /** lstat(2) of an entry: a symlink is reported as one, never followed. */
  entryStat(name: string): Promise<FileStat>;
  openFile(name: string): Promise<FileHandle>;
  /**
   * The bytes of many entries at once (a runtime may read them off the main thread): each opened
   * as openFile does, undefined for one that is not a regular file of at most `maxBytes`, cannot be
   * opened, or grew while read. Optional: without it, or when it rejects, callers open the files
   * one by one.
   */
  readFiles?(names: readonly string[], maxBytes: number): Promise<(Uint8Array | undefined)[]>;
  openDirectory(name: string): Promise<DirHandle>;
  /**
   * Creates or replaces `name` atomically (a temporary file in this directory, then a rename), so
   * readers never see half a file. The mode is `mode`, else the replaced file's, else 0666 minus
   * the umask. `exclusive` fails with EEXIST when `name` exists.
   */
  writeFile(name: string, data: Uint8Array, opts?: { mode?: number; exclusive?: boolean }): Promise<void>;
  mkdir(name: string, opts?: { mode?: number }): Promise<void>;
  /** Removes an entry without following symlinks; a directory needs `recursive` unless empty. */
  remove(name: string, opts?: { recursive?: boolean }): Promise<void>;
  /** rename(2) of an entry of this directory to `targetName` in `target` (same filesystem). */
  rename(name: string, target: DirHandle, targetName: string): Promise<void>;
  /** Idempotent. */
  close(): Promise<void>;
}

export interface WatchEvent {
  /** "rename": a name appeared or went away; "change": content or metadata changed. */
  kind: "change" | "rename";
  /**
   * The name relative to the watched path ("sub/file" when recursive), undefined when the OS does
   * not say. Events are hints, not a log: Deno reports some twice, and an event identical to the
   * one just before it can be merged into it (inotify does, Bun within milliseconds); re-stat.
   */
  name: string | undefined;
}

export interface WatchOptions {
  /** Also watch everything below a watched directory (Linux, macOS and Windows; all three runtimes). */
  recursive?: boolean;
  /** Failures after the watch started (the watch limit reached, say); without it they are dropped. */
  onError?(err: RuntimeError): void;
}

export interface Watcher {
  close(): void;
}

export interface SpawnOptions {
  cwd: string;
  env?: Record<string, string>;
  /**
   * Text or bytes are written to stdin, then stdin is closed; "pipe" keeps it open as
   * `child.stdin` for a conversation (a language server's LSP). Without it stdin is closed at once.
   */
  stdin?: string | Uint8Array | "pipe";
  /**
   * The child leads a new session and process group (setsid), so `kill(sig, { group: true })`
   * and an abort of `signal` reach its whole tree (a test runner's workers, a shell's jobs).
   * Being outside the bridge's group, it gets neither the terminal's Ctrl-C nor its hangup: the
   * bridge's shutdown handlers can still stop it in order. It never keeps the bridge's event loop
   * alive (reading its output does not either: the bridge's server does), and its group is sent
   * SIGTERM when the bridge process exits, so it cannot outlive the bridge as an orphan (a
   * SIGKILL of the bridge aside, which nothing can catch).
   */
  processGroup?: boolean;
  /** Aborting sends SIGTERM: to the child, or to its whole group with `processGroup`. */
  signal?: AbortSignal;
}

export type KillSignal = "SIGTERM" | "SIGKILL" | "SIGINT";

export interface Child {
  readonly pid: number | undefined;
  /**
   * With `stdin: "pipe"` only. Closing or aborting it closes the child's stdin; a write after
   * the child closed its end or exited fails with EPIPE.
   */
  readonly stdin: WritableStream<Uint8Array> | undefined;
  readonly stdout: ReadableStream<Uint8Array>;
  readonly stderr: ReadableStream<Uint8Array>;
  /** Resolves with the exit code (signal deaths give 128 + signal number). */
  readonly exited: Promise<number>;
  /**
   * Signals the child, or with `group` its whole process group: that needs `processGroup` (else
   * EINVAL), and still reaches what is left of the group after the child itself exited.
   */
  kill(signal?: KillSignal, opts?: { group?: boolean }): void;
}

/** fetchPinned's request: everything but where to connect comes from the URL. */
export interface PinnedFetchInit {
  /** The IPv4 or IPv6 literal to connect to: the address the caller resolved and checked. */
  address: string;
  method?: string;
  /** A Host given here is replaced by the URL's. */
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** Aborting fails the request, or the body being read, with ECANCELED. */
  signal?: AbortSignal;
  /** For the whole exchange, the body included; past it the request or the body fails with ETIMEDOUT. */
  timeoutMs?: number;
  /** PEM certificates trusted for https instead of the system's (a private CA, tests). */
  ca?: string;
}

/** What the runtime knows about an upgraded socket that hono's WSContext does not expose. */
export interface WebSocketInfo {
  /** Bytes queued but not yet sent; used for backpressure. */
  bufferedAmount(ws: WSContext): number;
}

export interface Runtime {
  readonly name: "node" | "bun" | "deno";
  serve(app: { fetch: FetchHandler }, opts: ServeOptions): Promise<Served>;
  /**
   * hono's per-runtime upgrade helper. The adapter enforces the frame limit (4 MB), answers
   * pings, echoes the `mcp` subprotocol and pings clients every 30 s.
   */
  readonly upgradeWebSocket: UpgradeWebSocket;
  readonly webSocketInfo: WebSocketInfo;
  readonly fs: Fs;
  spawn(cmd: string, args: string[], opts: SpawnOptions): Child;
  /** Language servers over stdio (src/lsp builds on it). */
  readonly languageServers: LanguageServerLauncher;
  which(cmd: string): Promise<string | undefined>;
  resolveHost(host: string): Promise<string[]>;
  /**
   * An HTTP(S) request to exactly `init.address`, which the caller has checked (SSRF defence,
   * src/security/ssrf.ts): no DNS, so a rebinding answer cannot move it. The URL's hostname is the
   * Host header and, for https, the TLS SNI and the certificate's hostname. Redirects are never
   * followed (a 3xx comes back with its Location); the body streams. Failures are RuntimeErrors.
   */
  fetchPinned(url: string, init: PinnedFetchInit): Promise<Response>;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly paths: {
    readonly home: string;
    readonly cwd: string;
    readonly tmp: string;
  };
  readonly pid: number;
  readonly platform: "linux" | "darwin" | "win32" | "other";
  processAlive(pid: number): boolean;
  /** Start time of a live process in ms since the epoch, when the OS tells (PID-reuse guard). */
  processStartTime(pid: number): Promise<number | undefined>;
  /** Runs `fn` once on SIGINT/SIGTERM or an explicit shutdown, before the process exits. */
  onShutdown(fn: () => Promise<void>): void;
}

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
export type LspRequestHandler = (params: unknown, signal: AbortSignal) => unknown;

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
