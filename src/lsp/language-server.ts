// One running language server for one (server, root): its connection, what it announced, its
// progress, the documents it has open and the diagnostics it published. Requests on a file sync
// the file from disk first (open-documents.ts); diagnostics are pulled where the server supports
// it (textDocument/diagnostic) and otherwise waited for, for the version just synced.
import type {
  ApplyWorkspaceEditParams,
  DocumentDiagnosticReport,
  InitializeResult,
  PublishDiagnosticsParams,
  Registration,
  ServerCapabilities,
} from "vscode-languageserver-protocol";
import { ToolError } from "../errors.ts";
import { LspRequestError, type LanguageServerLauncher, type LspConnection } from "../ports/lsp.ts";
import { ServerRefusal } from "./server-refusal.ts";
import { toFileUri } from "../lib/paths/file-uri.ts";
import type { WorkspacePath } from "../security/jail/workspace-path.ts";
import { initializeParams } from "./client-capabilities.ts";
import { DiagnosticsStore } from "./diagnostics-store.ts";
import { OpenDocuments, type DocumentFiles, type SyncResult } from "./open-documents.ts";
import { ProgressTracker } from "./progress-tracker.ts";
import { KeptDiagnostics, pushedAnswerKeepable } from "./kept-diagnostics.ts";
import { type FileDiagnostics, type PushSide, pushedDiagnostics } from "./pushed-diagnostics.ts";
import { supportsMethod } from "./server-capability.ts";
import { answerServerRequests } from "./server-requests.ts";
import type { ServerSpec } from "./server-specs.ts";

/** initialize may load a whole project (gopls, clangd); past this the server is given up on. */
const INITIALIZE_TIMEOUT_MS = 60_000;
const SHUTDOWN_GRACE_MS = 2_000;

interface Launch {
  spec: ServerSpec;
  root: string;
  command: string;
  args: readonly string[];
  env: Record<string, string>;
  initializationOptions: unknown;
  /** Answers to workspace/configuration: the spec's settings with the project's style. */
  settings: Readonly<Record<string, unknown>> | undefined;
  processId: number;
  /** Answers kept by the last server of this (server, root), taken over if it stopped seeing what this one will. */
  kept?: KeptDiagnostics;
}

export interface ServerHooks extends DocumentFiles {
  /** Diagnostics of a URI changed (pushed or pulled). */
  onDiagnosticsChanged(uri: string): void;
  /** Every change on disk is heard (the watcher runs and covers the tree): answers may be kept (kept-diagnostics.ts). */
  watching?(): boolean;
  /** Whether a change to this file (absolute) is heard (WorkspaceWatcher.hearsChange): a schema a kept answer depends on. */
  hears?(path: string): Promise<boolean>;
}

/** "typescript-go 7.0.2"; a version that is a JSON blob (gopls) or a long banner (clangd) is shortened. */
export function displayName(info: { name: string; version?: string }): string {
  const version = info.version?.startsWith("{")
    ? /"Version":"([^"]*)"/.exec(info.version)?.[1]
    : info.version?.match(/\d+\.\d+[^\s]*/)?.[0];
  return version ? `${info.name} ${version}` : info.name;
}

export class LanguageServer {
  readonly progress = new ProgressTracker();
  readonly diagnostics: DiagnosticsStore;
  readonly registrations = new Map<string, Registration>();
  readonly refusedEdits: unknown[] = [];
  /** The positions a server asked its client to rename after a refactor (`_typescript.rename`), last one last. */
  readonly renameRequests: unknown[] = [];
  capabilities: ServerCapabilities = {};
  serverName: string;
  readonly startedAt = Date.now();
  lastUsed = Date.now();
  /** Requests in flight: an idle server is only stopped with none. */
  busy = 0;
  private readonly documents: OpenDocuments;
  private readonly pulled = new Map<string, string>();
  private readonly kept: KeptDiagnostics;
  private stopping: Promise<void> | undefined;
  /** Set while a command the bridge runs may send workspace/applyEdit. */
  private captured: ApplyWorkspaceEditParams[] | undefined;
  private commandDone: Promise<void> = Promise.resolve();
  private settings: Readonly<Record<string, unknown>>;

  private constructor(
    readonly launch: Launch,
    private readonly connection: LspConnection,
    private readonly hooks: ServerHooks,
  ) {
    this.serverName = launch.spec.id;
    this.settings = launch.settings ?? {};
    this.diagnostics = new DiagnosticsStore(hooks.onDiagnosticsChanged);
    this.documents = new OpenDocuments(connection, hooks);
    this.kept = launch.kept ?? new KeptDiagnostics();
    this.kept.adopt(JSON.stringify(this.settings));
    connection.onNotification("$/progress", (params) => this.progress.onProgress(params));
    const readyLine = launch.spec.readyLog?.message;
    if (readyLine !== undefined) connection.onNotification("window/logMessage", (params) => this.progress.onLogMessage(params, readyLine));
    connection.onNotification("textDocument/publishDiagnostics", (params) => this.diagnostics.publish(params as PublishDiagnosticsParams));
    answerServerRequests(connection, {
      root: launch.root,
      settings: () => this.settings,
      registrations: this.registrations,
      refusedEdits: this.refusedEdits,
      captureEdit: (params) => {
        if (this.captured === undefined) return false;
        this.captured.push(params);
        return true;
      },
      onProgressCreate: (params) => this.progress.onCreate(params),
      onDiagnosticRefresh: () => {
        this.pulled.clear();
        this.kept.clear();
      },
      onRenameRequest: (params) => {
        this.renameRequests.push(params);
        if (this.renameRequests.length > 8) this.renameRequests.shift();
      },
    });
    void connection.exited.then(() => this.progress.reset());
  }

  static async start(launcher: LanguageServerLauncher, launch: Launch, hooks: ServerHooks): Promise<LanguageServer> {
    const connection = launcher.start(launch.command, [...launch.args], { cwd: launch.root, env: launch.env });
    const server = new LanguageServer(launch, connection, hooks);
    const timeout = AbortSignal.timeout(INITIALIZE_TIMEOUT_MS);
    try {
      const result = (await connection.request(
        "initialize",
        initializeParams({
          root: launch.root,
          processId: launch.processId,
          initializationOptions: launch.initializationOptions,
          pushDiagnosticsOnly: launch.spec.pushDiagnosticsOnly === true,
        }),
        timeout,
      )) as InitializeResult;
      server.capabilities = result.capabilities ?? {};
      if (result.serverInfo) server.serverName = displayName(result.serverInfo);
      await connection.notify("initialized", {});
      if (launch.settings !== undefined) await connection.notify("workspace/didChangeConfiguration", { settings: launch.settings });
      return server;
    } catch (err) {
      const tail = connection.stderrTail().trim().split("\n").slice(-5).join("\n");
      await connection.close();
      throw new Error(
        `${launch.spec.id} (${launch.command}) did not initialize: ${err instanceof Error ? err.message : String(err)}${tail ? `\n${tail}` : ""}`,
        { cause: err },
      );
    }
  }

  /** New settings (the project's style changed): answered from now on, pushed, and no diagnostics kept from before reused. */
  async updateSettings(settings: Readonly<Record<string, unknown>>): Promise<void> {
    if (JSON.stringify(settings) === JSON.stringify(this.settings)) return;
    this.settings = settings;
    this.documents.bump();
    await this.connection.notify("workspace/didChangeConfiguration", { settings });
  }

  get pid(): number | undefined {
    return this.connection.pid;
  }

  get exited(): Promise<number> {
    return this.connection.exited;
  }

  get openDocuments(): number {
    return this.documents.size;
  }

  openPaths(): WorkspacePath[] {
    return this.documents.paths();
  }

  stderrTail(): string {
    return this.connection.stderrTail();
  }

  supports(method: string): boolean {
    return supportsMethod({ capabilities: this.capabilities, registrations: this.registrations.values() }, method);
  }

  async request<T>(method: string, params: unknown, opts: { signal?: AbortSignal | undefined } = {}): Promise<T> {
    this.lastUsed = Date.now();
    this.busy += 1;
    try {
      return (await this.connection.request(method, params, opts.signal)) as T;
    } catch (err) {
      throw this.failure(method, err);
    } finally {
      this.busy -= 1;
      this.lastUsed = Date.now();
    }
  }

  /** A failed request as the tool's error: cancelled, the server gone (it restarts), or its refusal. */
  private failure(method: string, err: unknown): unknown {
    if (!(err instanceof LspRequestError)) return err;
    if (err.code === -32800)
      return new ToolError("cancelled", `${method} was cancelled`, { suggestion: "Call again if the answer is still needed.", cause: err });
    if (err.code === "closed")
      return new ToolError("language_server_error", `${this.serverName} exited while answering ${method}`, {
        suggestion: "Call again: the server is started again on the next call.",
        cause: err,
      });
    return new ServerRefusal(this.serverName, { method, reason: err.message.replace(`${method}: `, "") });
  }

  notify(method: string, params: unknown): Promise<void> {
    return this.connection.notify(method, params);
  }

  /** `text`: an edit's proposed content instead of the file's (apply-edit.ts puts the file's back). */
  sync(path: WorkspacePath, languageId: string, opts: { text?: string | undefined } = {}): Promise<SyncResult> {
    this.lastUsed = Date.now();
    return this.documents.sync(path, languageId, opts);
  }

  /** Closes an open document (apply-edit.ts: a file the edit removes); a later sync reopens it. */
  close(path: string): Promise<void> {
    return this.documents.close(path);
  }

  /** The text the server has for an open file (what its edits' positions refer to). */
  openText(path: string): string | undefined {
    return this.documents.get(path)?.text;
  }

  /**
   * Runs workspace/executeCommand, capturing the edits the server asks to apply meanwhile (the
   * command of a code action); the caller applies them. One command at a time per server.
   */
  async executeCommand(command: { command: string; arguments?: unknown[] }, signal: AbortSignal): Promise<ApplyWorkspaceEditParams[]> {
    while (this.captured !== undefined) await this.commandDone;
    const captured: ApplyWorkspaceEditParams[] = [];
    this.captured = captured;
    let done = () => {};
    this.commandDone = new Promise<void>((resolve) => {
      done = resolve;
    });
    try {
      await this.request("workspace/executeCommand", { command: command.command, arguments: command.arguments ?? [] }, { signal });
      return captured;
    } finally {
      this.captured = undefined;
      done();
    }
  }

  /** Files changed on disk: what the open documents were analysed against may be old (their next diagnostics are fresh ones). */
  filesChanged(): void {
    this.documents.bump();
  }

  /** The file changed on disk (a watcher's hint): an open copy is brought up to date now, through the jail. */
  async refresh(path: string): Promise<void> {
    const doc = this.documents.get(path);
    if (doc !== undefined) await this.documents.sync(doc.path, doc.languageId).catch(() => {});
  }

  /** Diagnostics for the file's content on disk now, or for `text` (an edit's proposed content). */
  async diagnosticsFor(
    path: WorkspacePath,
    languageId: string,
    opts: { deadline: number; signal: AbortSignal; text?: string; catchUpDeadline?: number },
  ): Promise<FileDiagnostics> {
    const pulls = this.supports("textDocument/diagnostic");
    const keeps = opts.text === undefined && this.hooks.watching?.() === true;
    if (keeps && this.kept.has(path, this.documents.state)) {
      const kept = this.kept.lookup(path, {
        state: this.documents.state,
        text: await this.hooks.readText(path).catch(() => undefined),
      });
      if (kept !== undefined) return kept;
    }
    const before = this.diagnostics.now;
    const synced = await this.sync(path, languageId, { text: opts.text });
    let { doc, changed } = synced;
    const state = this.documents.state;
    // Something it depends on changed since the server last saw this document: a pulling server
    // computes for the state now, a push-only one is made to analyse it again.
    const reopen = !pulls && !changed && doc.syncedAt < this.documents.epoch && this.launch.spec.refreshByReopening === true;
    const touched = !pulls && !changed && doc.syncedAt < this.documents.epoch;
    if (touched) {
      doc = (await this.documents.touch(path, { reopen })) ?? doc;
      changed = true;
    }
    if (pulls) {
      const report = await this.request<DocumentDiagnosticReport>(
        "textDocument/diagnostic",
        { textDocument: { uri: doc.uri } },
        { signal: opts.signal },
      );
      // No previousResultId is sent, so the report is always a full one.
      const items = "items" in report ? report.items : [];
      if (keeps) this.kept.keep(path, { state, text: doc.text, items, how: "pull" });
      const fingerprint = JSON.stringify(items);
      if (this.pulled.get(doc.uri) !== fingerprint) {
        this.pulled.set(doc.uri, fingerprint);
        this.hooks.onDiagnosticsChanged(doc.uri);
      }
      return { items, how: "pull" };
    }
    const found = await pushedDiagnostics(this.pushSide(), { path, doc, changed, touched, reopen, before }, opts);
    const hears = (file: string) => this.hooks.hears?.(file) ?? Promise.resolve(false);
    const keepable = keeps && found.how === "push" && (await pushedAnswerKeepable({ languageId, path, text: doc.text }, hears));
    if (keepable) this.kept.keep(path, { state, text: doc.text, items: found.items, how: "push" });
    return found;
  }

  private pushSide(): PushSide {
    return {
      diagnostics: this.diagnostics,
      progress: this.progress,
      documents: this.documents,
      spec: this.launch.spec,
      serverName: this.serverName,
    };
  }

  /** Files the server has told the bridge about: open ones and those it published diagnostics for. */
  knownUris(): string[] {
    return [...new Set([...this.documents.paths().map((p) => toFileUri(p)), ...this.diagnostics.uris(), ...this.pulled.keys()])];
  }

  /** Stopping (idle, or for the pool's cap): answers kept at the last state stay for the next server (kept-diagnostics.ts). */
  retire(): void {
    const clean = this.documents.paths().every((p) => this.documents.get(p)?.proposed !== true);
    this.kept.retire({ state: this.documents.state, clean, settings: JSON.stringify(this.settings), serverName: this.serverName });
  }

  /** Kills the server at once (tests, and a server that stopped answering). */
  kill(): void {
    this.connection.kill();
  }

  /** shutdown + exit, then the process group is killed if it is still there. */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      const grace = AbortSignal.timeout(SHUTDOWN_GRACE_MS);
      try {
        await this.connection.request("shutdown", null, grace);
        await this.connection.notify("exit", null);
        await Promise.race([this.connection.exited, new Promise((resolve) => grace.addEventListener("abort", resolve, { once: true }))]);
      } catch {
        // Dead or not answering: the kill below ends it.
      }
      await this.connection.close();
    })();
    return this.stopping;
  }
}
