// The shapes of ctx.lsp (LspService) and what it hands out: kept apart from lsp-service.ts, the one
// implementation, so the tools and capabilities that only name these types read them here.
import type { Diagnostic, WorkspaceEdit } from "vscode-languageserver-protocol";
import type { ApplyEditOptions, EditOutcome } from "./apply-edit.ts";
import type { Runtime } from "../ports/runtime.ts";
import type { WorkspacePath } from "../security/jail/workspace-path.ts";
import type { WorkspaceFs } from "../workspace/workspace-fs.ts";
import type { ResolvedCommand } from "./command-resolver.ts";
import type { LanguageServer } from "./language-server.ts";
import type { PoolLimits, ServerStatus } from "./server-status.ts";
import type { ServerSpec } from "./server-specs.ts";
import type { Answer } from "./whole-project.ts";
import type { WatchProof } from "./unchanged-memo.ts";

export interface LspDocument {
  readonly path: WorkspacePath;
  /** Root-relative, for results. */
  readonly relative: string;
  readonly uri: string;
  readonly languageId: string;
  readonly text: string;
  readonly lines: readonly string[];
  readonly server: LanguageServer;
  /** This call opened the file in the server or sent it new content: a server may still be parsing it. */
  readonly fresh: boolean;
  request<T>(method: string, params: unknown): Promise<T>;
  /** A request whose answer needs the whole project: waits for readiness, says when partial. */
  wholeProject<T>(method: string, params: unknown): Promise<Answer<T>>;
}

export interface CallOptions {
  signal: AbortSignal;
  /** Told while a server starts or loads (ctx.progress). */
  onProgress?: (message: string) => void;
}

export interface FileDiagnosticsResult {
  path: WorkspacePath;
  relative: string;
  items: Diagnostic[];
  server: string;
  /** false when a push-only server published nothing for this content in time, or had not caught up with a change on disk (`why`). */
  current: boolean;
  why?: string;
}

export interface WorkspaceDiagnostics {
  files: FileDiagnosticsResult[];
  /** Files a server handles that were checked, and those left out by the bound. */
  checked: number;
  notChecked: number;
  /** Of notChecked, the files left out because the deadline came first (the lowest ranked: file-rank.ts). */
  notReached: string[];
  /** Files no server could check, by reason ("gopls: not installed"). */
  failed: { source: string; reason: string }[];
}

export interface LspStatus {
  servers: ServerStatus[];
  limits: PoolLimits;
  watchedDirectories: number;
  watcherTruncated: boolean;
}

export interface LspService {
  /** `file` synced from disk into the server for it that answers `method` (started if needed). */
  document(file: string, opts: CallOptions & { method: string; skip?: readonly string[] }): Promise<LspDocument>;
  /** Servers for requests about the workspace (symbols): running ones, else started for its main languages. */
  workspaceServers(opts: CallOptions & { method: string }): Promise<LanguageServer[]>;
  wholeProject<T>(server: LanguageServer, ask: () => Promise<T>, signal: AbortSignal): Promise<Answer<T>>;
  /** Diagnostics for the file's content on disk now: pulled where the server can, else pushed for that version. `start: false`: only from a server already running. */
  diagnosticsFor(file: string, opts: CallOptions & { start?: boolean }): Promise<FileDiagnosticsResult>;
  /** Whether an installed language server handles `file`, or a file under it when it is a directory (nothing is started). */
  handles(file: string): Promise<boolean>;
  /** The languageId of a root-relative path, or undefined when no server's language claims it. */
  languageOf(relative: string): string | undefined;
  /**
   * Opens `files` (root-relative) in `server` and waits until it has analysed each (a push-only
   * server: its diagnostics for the version sent; a pulling one answers in order anyway), so a
   * request sent next sees them. Files of a language the server does not handle, or unreadable,
   * are left out; returns those opened.
   */
  analyse(server: LanguageServer, files: readonly string[], opts: { signal: AbortSignal }): Promise<string[]>;
  /** Whether an installed server handles one of the workspace's main languages (its source files, not JSON or YAML). */
  handlesWorkspace(signal: AbortSignal): Promise<boolean>;
  /**
   * Diagnostics of every file of the workspace (or of the directory `under`, root-relative) an
   * installed server handles, the project's own code first (file-rank.ts), up to `maxFiles`, each
   * for its content on disk.
   */
  workspaceDiagnostics(
    opts: CallOptions & {
      maxFiles: number;
      under?: string;
      /** Files not started by then are not checked (notReached). */
      deadline?: number;
      /** Root-relative files already checked another way (a project's compiler run): left out. */
      except?: ReadonlySet<string>;
    },
  ): Promise<WorkspaceDiagnostics>;
  /** A server's WorkspaceEdit applied atomically through the jail, with the errors it introduces and fixes (apply-edit.ts). */
  applyEdit(server: LanguageServer, edit: WorkspaceEdit, opts: ApplyEditOptions): Promise<EditOutcome>;
  /** Errors (severity 1) of every file the running servers know, each for its current content. */
  workspaceErrors(opts: CallOptions & { maxFiles?: number }): Promise<FileDiagnosticsResult[]>;
  /** Whether a running server already has the file (opened or diagnosed); starts nothing. The edit tools report a diagnostics delta only then. */
  covers(path: WorkspacePath): boolean;
  /**
   * Files of the workspace whose diagnostics a running server can be asked for again now, without
   * their content changing: those it has open or has diagnosed, of servers that pull diagnostics (a
   * push-only server says nothing new about a file whose content is the same). Starts nothing.
   */
  recheckable(): Promise<WorkspacePath[]>;
  /**
   * A change the bridge itself just made to the workspace's files (created 1, changed 2, deleted 3),
   * told to the running servers now rather than when the watcher notices it: documents gone are
   * closed (those under a deleted directory too), and every server gets didChangeWatchedFiles.
   */
  filesChanged(changes: readonly { path: WorkspacePath; type: 1 | 2 | 3 }[]): Promise<void>;
  /** Called with a root-relative path when a file's diagnostics may have changed: the file changed on disk (told to the servers), or a server's diagnostics for it changed. */
  onChange(listener: ChangeListener): () => void;
  /**
   * What `compute` gave for `key` while the workspace's files have not changed since (the watcher
   * vouches for it: unchanged-memo.ts), else computed now and kept when `keep` says so.
   */
  whileUnchanged<T>(key: string, compute: () => Promise<T>, opts: { keep(value: T): boolean }): Promise<T>;
  /** The watcher's word that files did not change (unchanged-memo.ts), or undefined where it cannot vouch. */
  watchProof(): Promise<WatchProof | undefined>;
  /** A server's URI inside the workspace, through the jail; undefined for anything outside. */
  pathOf(uri: string): Promise<WorkspacePath | undefined>;
  status(): LspStatus;
  /** Every server the bridge knows (configured and built-in) and where its executable was found for the workspace root. */
  available(): Promise<AvailableServer[]>;
  stop(): Promise<void>;
}

/** "disk": the file changed and the servers were told; "diagnostics": a server's diagnostics for it changed. */
export type ChangeCause = "disk" | "diagnostics";
export type ChangeListener = (relative: string, cause: ChangeCause) => void;

export interface AvailableServer {
  id: string;
  languages: readonly string[];
  /** The executable and where it came from, or undefined when it is not installed. */
  found: ResolvedCommand | undefined;
}

export interface LspServiceOptions {
  runtime: Pick<Runtime, "languageServers" | "which" | "fs" | "env" | "pid" | "name" | "platform">;
  fs: WorkspaceFs;
  /** Configured servers first (src/lsp/configured-servers.ts), then the built-ins. */
  specs?: readonly ServerSpec[];
  idleMs?: number;
  /** At most this many language servers run at once (default 8); the least recently used idle one is stopped first. */
  maxServers?: number;
  /** Their resident memory together is kept under this (default 1.5 GiB), where it can be read (Linux). */
  maxMemoryBytes?: number;
  log?: (level: "info" | "warning", message: string, data?: Record<string, unknown>) => void;
}
