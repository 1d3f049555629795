// ctx.lsp: the narrow capability the LSP tools get (DESIGN.md, "Tools are data"). It lives in the
// bridge, one per workspace, and owns the server pool, the watcher and the diagnostics events;
// every path it takes from a tool and every URI a server returns goes through the jail (ctx.fs).
// Its types are in lsp-service-types.ts.
import { applyWorkspaceEdit } from "./apply-edit.ts";
import { ToolError } from "../errors.ts";
import { childEnvironment } from "../security/commands/child-env.ts";
import { fromFileUri, toFileUri } from "../lib/paths/file-uri.ts";
import { basename, isInside, relative } from "../lib/paths/posix-path.ts";
import type { WorkspacePath } from "../security/jail/workspace-path.ts";
import { createCommandResolver } from "./command-resolver.ts";
import type { LanguageServer } from "./language-server.ts";
import { splitLines } from "./positions.ts";
import { LanguageServerPool } from "./server-pool.ts";
import { BUILT_IN_SERVERS } from "./server-specs.ts";
import { fileWholeProject } from "./file-readiness.ts";
import { CLANGD_DATABASE_NAMES, WorkspaceWatcher } from "./workspace-watcher.ts";
import { checkWorkspaceFiles } from "./workspace-diagnostics.ts";
import { findWorkspaceSources } from "./workspace-sources.ts";
import { formattingOverrides, readProjectStyle } from "./project-style.ts";
import { projectRoot } from "./project-root.ts";
import { UnchangedMemo } from "./unchanged-memo.ts";
import { installedLanguages } from "./installed-languages.ts";

/** Larger files are not sent to a server (a generated bundle is no one's source). */
export const MAX_DOCUMENT_BYTES = 2 * 1024 * 1024;
/** A style config (.editorconfig, .prettierrc, package.json) larger than this is not read. */
const MAX_CONFIG_BYTES = 256 * 1024;
/** How long a whole-project request waits for the server's readiness before answering partial. */
const READY_WAIT_MS = 20_000;
/** How long a push-only server gets to publish the diagnostics of what was just synced. */
const PUSH_WAIT_MS = 5_000;
/** The same for an edit's check, which sends several files at once (clangd rebuilds them on two threads). */
const EDIT_CHECK_WAIT_MS = 15_000;
/**
 * The pool's caps (README, "Language servers"; --lsp-max-servers, --lsp-memory-mb): servers at
 * once, and their memory together. A session that walked a TypeScript repository once left 23
 * servers holding 2.36 GB; 1.5 GiB keeps an ordinary repository's servers and stops the least
 * recently used past it. A workspace in every language the bridge ships servers for takes more
 * (nine servers passed 1.5 GiB): its least used server then starts again cold on its next call,
 * and a user who wants them all kept raises the flag.
 */
export const DEFAULT_MAX_SERVERS = 16;
export const DEFAULT_MAX_MEMORY_BYTES = 1.5 * 2 ** 30;
const FORMATTING_METHODS = new Set(["textDocument/formatting", "textDocument/rangeFormatting", "textDocument/onTypeFormatting"]);
/** How long a push-only server gets to catch up with a change on disk before the answer says it may be stale. */
const CATCH_UP_MS = 60_000;

export type { FileDiagnosticsResult, LspDocument, LspService, LspServiceOptions } from "./lsp-service-types.ts";
import type {
  CallOptions,
  ChangeCause,
  ChangeListener,
  FileDiagnosticsResult,
  LspDocument,
  LspService,
  LspServiceOptions,
} from "./lsp-service-types.ts";

export function createLspService(opts: LspServiceOptions): LspService {
  const { runtime, fs } = opts;
  const listeners = new Set<ChangeListener>();
  // Named as ctx.fs names files (root-relative), so listeners can compare with tool results.
  const emit = (path: string, cause: ChangeCause) => {
    const name = isInside(path, fs.root) ? relative(fs.root, path) : path;
    for (const listener of listeners) listener(name, cause);
  };
  let watcher: WorkspaceWatcher | undefined;
  /** Answers kept while no file changes; vouched for on Node on Linux once the watcher's first walk is done. */
  let watching = false;
  const vouches = runtime.name === "node" && runtime.platform === "linux";
  const memo = new UnchangedMemo({ vouches, watcher: () => (watching ? watcher : undefined) });
  /** The watcher's first walk, once it started (with the first server, or the first proof asked for). */
  let walked: Promise<void> | undefined;
  /** Compilation database folders `.clangd` files name: watched for their database and index folder. */
  const databaseFolders = new Set<string>();
  const resolveCommand = createCommandResolver({ launcher: runtime.languageServers, which: (cmd) => runtime.which(cmd), fs: runtime.fs });
  const specs = [...(opts.specs ?? []), ...BUILT_IN_SERVERS];
  const pool = new LanguageServerPool({
    launcher: runtime.languageServers,
    resolveCommand,
    fs: runtime.fs,
    folders: fs.folders,
    specs,
    env: childEnvironment(runtime.env, undefined),
    processId: runtime.pid,
    idleMs: opts.idleMs ?? 10 * 60_000,
    maxServers: opts.maxServers ?? DEFAULT_MAX_SERVERS,
    maxMemoryBytes: opts.maxMemoryBytes ?? DEFAULT_MAX_MEMORY_BYTES,
    procFs: runtime.fs,
    hooks: {
      // Paths come from fs.resolve just before (document(), diagnosticsFor()): read without resolving them twice.
      readText: (path) => fs.readResolvedText(path, { maxBytes: MAX_DOCUMENT_BYTES }),
      statFile: (path) => runtime.fs.lstat(path),
      // Not before the first walk has watched every folder: a change in one not watched yet makes no event.
      watching: () => watching && watcher !== undefined && !watcher.truncated,
      hears: (path) => watcher?.hearsChange(path) ?? Promise.resolve(false),
      onDiagnosticsChanged: (uri) => {
        const path = fromFileUri(uri);
        if (path !== undefined) emit(path, "diagnostics");
      },
    },
    readConfig: (path) => fs.readText(path, { maxBytes: MAX_CONFIG_BYTES }).catch(() => undefined),
    onDatabaseFolders: (dirs) => {
      for (const dir of dirs) databaseFolders.add(dir);
      for (const dir of dirs) void watcher?.watchNames(dir, CLANGD_DATABASE_NAMES);
    },
    onStarted: () => void startWatcher(),
    log: opts.log ?? (() => {}),
  });

  /** Starts the workspace watcher once; resolves when its first walk is done. */
  function startWatcher(): Promise<void> {
    if (walked !== undefined) return walked;
    watcher = new WorkspaceWatcher(runtime.fs, (changes) => {
      memo.changed(changes);
      pool.forgetRoots(changes.filter((c) => c.type !== 2).map((c) => basename(c.path)));
      void pool.restyle(changes.map((c) => basename(c.path)));
      void pool.reguard(changes.map((c) => basename(c.path)));
      const servers = pool.runningServers();
      for (const server of servers) {
        server.filesChanged();
        for (const change of changes) if (change.type !== 3) void server.refresh(change.path);
        void server.notify("workspace/didChangeWatchedFiles", {
          changes: changes.map((c) => ({ uri: toFileUri(c.path), type: c.type })),
        });
      }
      for (const change of changes) emit(change.path, "disk");
    });
    const started = watcher;
    walked = started.start(fs.folders).then(
      () => {
        watching = true;
      },
      () => {},
    );
    // A .clangd written after the first server's guard looked and before the watches were in
    // place made no event: the guard looks once more when they are.
    void walked.then(async () => {
      for (const dir of databaseFolders) await started.watchNames(dir, CLANGD_DATABASE_NAMES);
      await pool.reguard("recheck");
    });
    return walked;
  }

  const document = async (file: string, call: CallOptions & { method: string; skip?: readonly string[] }): Promise<LspDocument> => {
    const path = await fs.resolve(file);
    const relative = fs.relative(path);
    // A change the watcher heard (a file deleted outside the bridge) reaches the servers before the request.
    await watcher?.settled();
    const { server, languageId } = await pool.serverFor(path, relative, {
      method: call.method,
      ...(call.onProgress ? { onStarting: call.onProgress } : {}),
      ...(call.skip ? { skip: call.skip } : {}),
    });
    const { doc, changed } = await server.sync(path, languageId);
    const text = doc.text;
    return {
      path,
      relative,
      uri: doc.uri,
      languageId,
      text,
      lines: splitLines(text),
      server,
      fresh: changed,
      request: async (method, params) =>
        server.request(method, FORMATTING_METHODS.has(method) ? await styled(server, path, params) : params, {
          signal: call.signal,
        }),
      wholeProject: (method, params) =>
        fileWholeProject(server, () => server.request(method, params, { signal: call.signal }), {
          file: path,
          signal: call.signal,
          deadline: Date.now() + READY_WAIT_MS,
          deps: readinessDeps,
        }),
    };
  };

  // Formatting requests carry the project's indentation and newline rules for this file (.editorconfig,
  // prettier, biome), over what the caller guessed from the file's own lines.
  const styled = async (server: LanguageServer, path: string, params: unknown): Promise<unknown> => {
    if (typeof params !== "object" || params === null || !("options" in params)) return params;
    // The style of the file's own package (its nearest root marker), though one server may serve the whole folder.
    const spec = { rootMarkers: server.launch.spec.rootMarkers, rootPolicy: "nearest-marker" as const };
    const root = await projectRoot(runtime.fs, path, { folder: server.launch.root, spec });
    const style = await readProjectStyle(
      (file) => fs.readText(`${root}/${file}`, { maxBytes: MAX_CONFIG_BYTES }).catch(() => undefined),
      relative(root, path),
    );
    const options = (params as { options: unknown }).options;
    return { ...params, options: { ...(typeof options === "object" ? options : {}), ...formattingOverrides(style) } };
  };

  const wholeProject = <T>(server: LanguageServer, ask: () => Promise<T>, signal: AbortSignal) =>
    fileWholeProject(server, ask, { deadline: Date.now() + READY_WAIT_MS, signal, deps: readinessDeps });
  const readinessDeps = { fs, statFs: runtime.fs, languageOf: (rel: string) => pool.languageOf(rel) };

  const diagnosticsFor = async (file: string, call: CallOptions & { start?: boolean }): Promise<FileDiagnosticsResult> => {
    const path = await fs.resolve(file);
    const relative = fs.relative(path);
    // Changes the watcher has heard of reach the servers before the answer is taken from them.
    await watcher?.settled();
    // A stopped server's kept answer, while every change is heard (as a running server's, language-server.ts).
    const stopped = watching && watcher !== undefined && !watcher.truncated ? await pool.stoppedKept(path, relative) : undefined;
    const text =
      stopped === undefined ? undefined : await fs.readResolvedText(path, { maxBytes: MAX_DOCUMENT_BYTES }).catch(() => undefined);
    const retired = stopped?.retiredAnswer(path, text);
    if (retired !== undefined) return { path, relative, items: retired.items, server: retired.server, current: true };
    // Any server of the language will do (every server takes didOpen): pull where it can, push otherwise.
    const { server, languageId } = await pool.serverFor(path, relative, {
      method: "textDocument/didOpen",
      ...(call.onProgress ? { onStarting: call.onProgress } : {}),
      ...(call.start === false ? { start: false } : {}),
    });
    const found = await server.diagnosticsFor(path, languageId, {
      // A server started moments ago is still loading its project (pyright, gopls): the first publication takes longer.
      deadline: Math.max(Date.now() + PUSH_WAIT_MS, server.startedAt + (server.launch.spec.coldStartMs ?? 0)),
      catchUpDeadline: Date.now() + CATCH_UP_MS,
      signal: call.signal,
    });
    return {
      path,
      relative,
      items: found.items,
      server: server.serverName,
      current: found.how === "pull" || found.how === "push",
      ...(found.why === undefined ? {} : { why: found.why }),
    };
  };

  const handlesLanguage = installedLanguages(specs, (spec) => resolveCommand(spec, fs.root));

  return {
    document,
    languageOf: (rel) => pool.languageOf(rel),
    async analyse(server, files, call) {
      const opened = await Promise.all(
        files.map(async (file) => {
          const path = await fs.resolve(file).catch(() => undefined);
          const languageId = path === undefined ? undefined : pool.languageOf(fs.relative(path));
          if (path === undefined || languageId === undefined || !server.launch.spec.languages.includes(languageId)) return undefined;
          try {
            if (server.supports("textDocument/diagnostic")) await server.sync(path, languageId);
            else await server.diagnosticsFor(path, languageId, { deadline: Date.now() + PUSH_WAIT_MS, signal: call.signal });
            return file;
          } catch {
            return undefined;
          }
        }),
      );
      return opened.filter((f): f is string => f !== undefined);
    },
    async handles(file) {
      const path = await fs.resolve(file).catch(() => undefined);
      if (path === undefined) return false;
      if ((await fs.stat(path).catch(() => undefined))?.isDirectory === true) {
        for await (const entry of fs.walk(fs.relative(path), { maxDepth: 32, includeHidden: false, signal: AbortSignal.timeout(10_000) })) {
          const languageId = entry.kind === "file" ? pool.languageOf(entry.rel) : undefined;
          if (languageId !== undefined && (await handlesLanguage(languageId))) return true;
        }
        return false;
      }
      const languageId = pool.languageOf(fs.relative(path));
      return languageId !== undefined && (await handlesLanguage(languageId));
    },
    async handlesWorkspace(signal) {
      for (const file of await findWorkspaceSources(fs, { languageOf: (rel) => pool.languageOf(rel), signal })) {
        const languageId = pool.languageOf(file);
        if (languageId !== undefined && (await handlesLanguage(languageId))) return true;
      }
      return false;
    },
    workspaceDiagnostics: (call) =>
      checkWorkspaceFiles(call, { fs, languageOf: (rel) => pool.languageOf(rel), handlesLanguage, diagnosticsFor }),
    applyEdit: (server, edit, call) =>
      applyWorkspaceEdit(server, edit, { ...call, fs, languageOf: (rel) => pool.languageOf(rel), pushWaitMs: EDIT_CHECK_WAIT_MS }),
    async workspaceServers(call) {
      let servers = pool.runningServers().filter((s) => s.supports(call.method));
      if (servers.length > 0) return servers;
      // Nothing running yet: open one source file of each of the workspace's main languages.
      for (const file of await findWorkspaceSources(fs, { languageOf: (rel) => pool.languageOf(rel), signal: call.signal })) {
        await document(file, call).catch(() => undefined);
      }
      servers = pool.runningServers().filter((s) => s.supports(call.method));
      if (servers.length === 0) {
        throw new ToolError("no_language_server", `No language server for this workspace's files answers ${call.method}`, {
          suggestion: 'getToolCapabilities lists the servers found; configure one under "lsp" in the config file.',
        });
      }
      return servers;
    },
    wholeProject,
    diagnosticsFor,
    covers: (path) => {
      const uri = toFileUri(path);
      return pool.runningServers().some((server) => server.knownUris().includes(uri));
    },
    async recheckable() {
      const uris = new Set<string>();
      for (const server of pool.runningServers())
        if (server.supports("textDocument/diagnostic")) for (const uri of server.knownUris()) uris.add(uri);
      const paths: WorkspacePath[] = [];
      for (const uri of uris) {
        const path = fromFileUri(uri) === undefined ? undefined : await fs.resolve(uri).catch(() => undefined);
        if (path !== undefined) paths.push(path);
      }
      return paths;
    },
    async filesChanged(changes) {
      memo.changed(changes);
      pool.changedWhileStopped();
      for (const server of pool.runningServers()) {
        server.filesChanged();
        for (const open of server.openPaths()) if (changes.some((c) => isInside(open, c.path))) await server.refresh(open);
        // A server that knows files under a deleted directory hears of each (a directory's own event is not enough for every server).
        const known = server.knownUris().map((uri) => ({ uri, path: fromFileUri(uri) }));
        const events = new Map(changes.map((c) => [toFileUri(c.path), c.type]));
        for (const change of changes) {
          if (change.type !== 3) continue;
          for (const k of known) if (k.path !== undefined && k.path !== change.path && isInside(k.path, change.path)) events.set(k.uri, 3);
        }
        await server.notify("workspace/didChangeWatchedFiles", { changes: [...events].map(([uri, type]) => ({ uri, type })) });
      }
      for (const change of changes) emit(change.path, "disk");
    },
    async workspaceErrors(call) {
      if (pool.runningServers().length === 0) {
        for (const file of await findWorkspaceSources(fs, { languageOf: (rel) => pool.languageOf(rel), signal: call.signal }))
          await document(file, { ...call, method: "textDocument/didOpen" }).catch(() => undefined);
      }
      const files = new Set<string>();
      for (const server of pool.runningServers()) for (const uri of server.knownUris()) files.add(uri);
      const results: FileDiagnosticsResult[] = [];
      for (const uri of [...files].slice(0, call.maxFiles ?? 200)) {
        if (call.signal.aborted) break;
        const found = await diagnosticsFor(uri, call).catch(() => undefined);
        if (found === undefined) continue;
        const errors = found.items.filter((d) => d.severity === 1 || d.severity === undefined);
        if (errors.length > 0) results.push({ ...found, items: errors });
      }
      return results;
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async pathOf(uri) {
      if (fromFileUri(uri) === undefined) return undefined;
      return fs.resolve(uri).catch(() => undefined);
    },
    available: () =>
      Promise.all(specs.map(async (spec) => ({ id: spec.id, languages: spec.languages, found: await resolveCommand(spec, fs.root) }))),
    status: () => ({
      servers: pool.status(),
      limits: pool.limits(),
      watchedDirectories: watcher?.directories ?? 0,
      watcherTruncated: watcher?.truncated ?? false,
    }),
    whileUnchanged: (key, compute, opts) => memo.get(key, compute, opts),
    async watchProof() {
      // A kept answer's first run is proven by the watcher too: started here when no server has started it yet.
      if (vouches) await startWatcher();
      return memo.proof();
    },
    async stop() {
      // No watcher started after the stop (a kept answer asking for its proof).
      walked ??= Promise.resolve();
      memo.clear();
      watcher?.close();
      await pool.stopAll();
    },
  };
}
