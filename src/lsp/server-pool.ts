// The language-server manager: one server per (server, project root by its root policy), started on
// first use; the first installed server of a language that supports the request answers it (so
// TypeScript's native server answers what it can, typescript-language-server the rest); a crashed
// server is started again on the next call, at most MAX_CRASHES times in CRASH_WINDOW_MS; a server
// idle for `idleMs` is shut down. Servers are a shared, capped resource: past `maxServers` running,
// or past `maxMemoryBytes` of resident memory together (server-memory.ts), the least recently used
// ones that are not answering anything are stopped, and started again on their next call.
import { ToolError, errorMessage } from "../errors.ts";
import type { Fs } from "../ports/fs.ts";
import type { LanguageServerLauncher } from "../ports/lsp.ts";
import { dirname } from "../lib/paths/posix-path.ts";
import type { WorkspacePath } from "../security/jail/workspace-path.ts";
import { compileGlob, type GlobMatcher } from "../lib/glob/index.ts";
import type { CommandResolver, ResolvedCommand } from "./command-resolver.ts";
import { languageIdOf } from "./languages.ts";
import { KeptDiagnostics } from "./kept-diagnostics.ts";
import { LanguageServer, type ServerHooks } from "./language-server.ts";
import { initializationOptionsFor } from "./launch-options.ts";
import { folderOf, projectRoot } from "./project-root.ts";
import { residentBytes } from "./server-memory.ts";
import { type ClangdGuardFs, guardedLaunchArgs } from "./clangd-config-guard.ts";
import { isStyleFile, styledSettings } from "./project-style.ts";
import type { ServerSpec } from "./server-specs.ts";
import { type PoolLimits, type ServerStatus, serverStatus } from "./server-status.ts";

const MAX_CRASHES = 3;
const CRASH_WINDOW_MS = 5 * 60_000;
/** Names that change what clangd's guard decides (clangd-config-guard.ts, launch-options.ts). */
const CLANGD_WATCHED = new Set([".clangd", "compile_commands.json", "compile_flags.txt", ".cache", "clangd", "index", "build"]);
/** How often the running servers' memory is measured against the cap (and idle ones stopped). */
const LIMITS_CHECK_MS = 15_000;

interface PoolOptions {
  launcher: LanguageServerLauncher;
  resolveCommand: CommandResolver;
  fs: ClangdGuardFs;
  folders: readonly string[];
  specs: readonly ServerSpec[];
  env: Record<string, string>;
  processId: number;
  idleMs: number;
  /** At most this many servers run at once. */
  maxServers: number;
  /** Their resident memory together (with the processes they started) is kept under this, where it can be read. */
  maxMemoryBytes: number;
  /** Reads /proc for the memory figures. */
  procFs: Pick<Fs, "readTextFile">;
  hooks: ServerHooks;
  /** Reads a project's config file (its style) through the jail; undefined when missing or unreadable. */
  readConfig(path: string): Promise<string | undefined>;
  onStarted(server: LanguageServer): void;
  /** The compilation database folders a clangd's `.clangd` files name, so changes there are heard too. */
  onDatabaseFolders?(dirs: readonly string[]): void;
  log(level: "info" | "warning", message: string, data?: Record<string, unknown>): void;
}

interface Entry {
  spec: ServerSpec;
  root: string;
  command: ResolvedCommand;
  server: LanguageServer | undefined;
  starting: Promise<LanguageServer> | undefined;
  crashes: number[];
  lastError: string | undefined;
  /** Shut down for being idle (not a crash): started again on the next call. */
  idle: boolean;
  /** Stopped to keep under the pool's cap: started again on the next call. */
  evicted: boolean;
  /** Resident bytes when last measured, undefined where they cannot be read. */
  memory: number | undefined;
  /** Its servers' kept diagnostics, given while none runs and taken over by the next (kept-diagnostics.ts). */
  kept: KeptDiagnostics;
}

interface ServerChoice {
  server: LanguageServer;
  languageId: string;
}

export class LanguageServerPool {
  private readonly entries = new Map<string, Entry>();
  /** Project roots by (server, directory): markers rarely come and go, and forgetRoots() hears when they do. */
  private readonly roots = new Map<string, Promise<string>>();
  private readonly patterns: { spec: ServerSpec; matchers: GlobMatcher[] }[];
  private idleTimer: ReturnType<typeof setInterval> | undefined;
  private closed = false;

  constructor(private readonly opts: PoolOptions) {
    this.patterns = opts.specs
      .filter((s) => s.filePatterns !== undefined)
      .map((spec) => ({ spec, matchers: (spec.filePatterns ?? []).map(compileGlob) }));
  }

  /** The languageId of a file: a configured server's patterns first, then the built-in table. */
  languageOf(relativePath: string): string | undefined {
    const configured = this.patterns.find((p) => p.matchers.some((m) => m.matches(relativePath)));
    return configured?.spec.languages[0] ?? languageIdOf(relativePath);
  }

  /** A running server for `path` that answers `method`, started when needed (`start: false`: only one already running). */
  async serverFor(
    path: WorkspacePath,
    relativePath: string,
    opts: { method: string; onStarting?: (what: string) => void; start?: boolean; skip?: readonly string[] },
  ): Promise<ServerChoice> {
    const languageId = this.languageOf(relativePath);
    // `skip`: servers (by id) a caller already asked, so the next one of the language answers (refactors tsgo has none of).
    const specs =
      languageId === undefined ? [] : this.opts.specs.filter((s) => s.languages.includes(languageId) && !opts.skip?.includes(s.id));
    if (languageId === undefined || specs.length === 0) {
      throw new ToolError("no_language_server", `No language server handles ${relativePath}${languageId ? ` (${languageId})` : ""}`, {
        suggestion: `Configure one under "lsp" in the config file, e.g. {"lsp": {"rust": {"command": "rust-analyzer", "filePatterns": ["*.rs"]}}}; getToolCapabilities lists the servers found.`,
      });
    }
    const tried: string[] = [];
    for (const spec of specs) {
      const entry = await this.entryFor(spec, path, { create: opts.start !== false });
      if (entry === undefined && opts.start === false) {
        tried.push(`${spec.id}: not running`);
        continue;
      }
      if (entry === undefined) {
        tried.push(`${spec.id}: not installed`);
        continue;
      }
      if (opts.start === false && entry.server === undefined) {
        tried.push(`${spec.id}: not running`);
        continue;
      }
      const server = await this.running(entry, opts.onStarting);
      if (server.supports(opts.method)) return { server, languageId };
      tried.push(`${spec.id}: has no ${opts.method}`);
    }
    const installed = tried.some((t) => !t.endsWith("not installed"));
    throw new ToolError(
      installed ? "not_supported" : "no_language_server",
      `No language server for ${languageId} here answers ${opts.method} (${tried.join("; ")})`,
      {
        suggestion: installed
          ? "Use another tool for this (findReferences, searchWorkspaceSymbols, searchWorkspace)."
          : `Install one (${specs.map((s) => s.id).join(" or ")}) so the bridge finds it on PATH, or configure one under "lsp" in the config file.`,
      },
    );
  }

  /** A file of this name appeared or went away: project roots are looked up again. */
  forgetRoots(changedNames: readonly string[]): void {
    if (changedNames.some((name) => this.opts.specs.some((s) => s.rootMarkers.includes(name)))) this.roots.clear();
  }

  /** A file of this name changed: servers that format by the project's style read it again. */
  async restyle(changedNames: readonly string[]): Promise<void> {
    if (!changedNames.some(isStyleFile)) return;
    for (const entry of this.entries.values()) {
      if (entry.server === undefined) continue;
      // A server that stops meanwhile has nothing to update.
      await entry.server
        .updateSettings((await styledSettings(entry.spec, (file) => this.opts.readConfig(`${entry.root}/${file}`))) ?? {})
        .catch(() => {});
    }
  }

  /**
   * A file the clangd guard looks at changed (a `.clangd`, a compilation database, a folder the
   * index is written under): a running clangd reads them as it goes, so the guard looks again, and
   * a clangd whose guarded arguments differ now is killed at once (a graceful stop would give it
   * time to read the new config) and started with them on its next call. `recheck`: whatever
   * changed (the watcher's watches are in place only now, so what changed before was not heard).
   */
  async reguard(changedNames: readonly string[] | "recheck"): Promise<void> {
    if (changedNames !== "recheck" && !changedNames.some((name) => CLANGD_WATCHED.has(name))) return;
    for (const entry of this.entries.values()) {
      if (entry.spec.id !== "clangd") continue;
      const server = entry.server ?? (await entry.starting?.catch(() => undefined));
      if (server === undefined) continue;
      const args = await guardedLaunchArgs(entry.spec, entry.root, {
        fs: this.opts.fs,
        warn: () => {},
        databases: (dirs) => this.opts.onDatabaseFolders?.(dirs),
      });
      if (entry.server !== server || args.join("\0") === server.launch.args.join("\0")) continue;
      entry.server = undefined;
      entry.evicted = true;
      this.opts.log(
        "warning",
        `clangd for ${entry.root} stopped: its config changed while it ran, and it starts again with ${args.filter((a) => !server.launch.args.includes(a)).join(" ") || "other arguments"} on its next call`,
      );
      server.kill();
    }
  }

  /** A file changed on disk: a stopped (or starting) server did not hear it, so what its last one kept is dropped. */
  changedWhileStopped(): void {
    for (const entry of this.entries.values()) if (entry.server === undefined) entry.kept.clear();
  }

  /** What the stopped (not starting) server of the file's language kept (kept-diagnostics.ts): it answers without being started. */
  async stoppedKept(path: WorkspacePath, relativePath: string): Promise<KeptDiagnostics | undefined> {
    const spec = this.opts.specs.find((s) => s.languages.includes(this.languageOf(relativePath) ?? ""));
    const entry = spec === undefined ? undefined : await this.entryFor(spec, path, { create: false });
    return entry?.server === undefined && entry?.starting === undefined ? entry?.kept : undefined;
  }

  /** Running servers, for requests that are not about one file (workspace symbols, errors). */
  runningServers(): LanguageServer[] {
    return [...this.entries.values()].flatMap((e) => (e.server === undefined ? [] : [e.server]));
  }

  status(): ServerStatus[] {
    return [...this.entries.values()].map((e) => serverStatus(e, { failed: this.recentCrashes(e) >= MAX_CRASHES }));
  }

  limits(): PoolLimits {
    const running = [...this.entries.values()].filter((e) => e.server !== undefined);
    const known = running.every((e) => e.memory !== undefined);
    return {
      maxServers: this.opts.maxServers,
      maxMemoryBytes: this.opts.maxMemoryBytes,
      ...(known ? { memoryBytes: running.reduce((sum, e) => sum + (e.memory ?? 0), 0) } : {}),
    };
  }

  /**
   * Measures every running server's memory and stops the least recently used idle ones (no request
   * in flight, not `keep`) while more than maxServers run or their memory together passes the cap.
   */
  async enforceLimits(keep?: LanguageServer): Promise<void> {
    for (const entry of this.entries.values())
      if (entry.server?.pid !== undefined) entry.memory = await residentBytes(this.opts.procFs, entry.server.pid);
    const running = () => [...this.entries.values()].filter((e) => e.server !== undefined);
    const total = () => running().reduce((sum, e) => sum + (e.memory ?? 0), 0);
    const over = () => running().length > this.opts.maxServers || total() > this.opts.maxMemoryBytes;
    while (over()) {
      const victim = running()
        .filter((e) => e.server !== keep && (e.server?.busy ?? 0) === 0)
        .sort((a, b) => (a.server?.lastUsed ?? 0) - (b.server?.lastUsed ?? 0))[0];
      const server = victim?.server;
      if (victim === undefined || server === undefined) return;
      victim.server = undefined;
      victim.evicted = true;
      server.retire();
      this.opts.log(
        "info",
        `language server ${victim.spec.id} for ${victim.root} stopped to keep under the cap (${this.opts.maxServers} servers, ${Math.round(this.opts.maxMemoryBytes / 2 ** 20)} MiB; ${running().length + 1} were running, ${Math.round((total() + (victim.memory ?? 0)) / 2 ** 20)} MiB); it starts again on its next call`,
      );
      await server.stop();
    }
  }

  async stopAll(): Promise<void> {
    this.closed = true;
    clearInterval(this.idleTimer);
    const servers = [...this.entries.values()].map((e) => e.starting?.catch(() => undefined) ?? Promise.resolve(e.server));
    this.entries.clear();
    await Promise.all(servers.map(async (s) => (await s)?.stop()));
  }

  /** `create: false`: only an entry that exists (a server asked for before), so nothing new shows in status(). */
  private async entryFor(spec: ServerSpec, path: WorkspacePath, opts: { create: boolean }): Promise<Entry | undefined> {
    const folder = folderOf(this.opts.folders, path) ?? this.opts.folders[0] ?? "/";
    const rootKey = `${spec.id}\0${dirname(path)}`;
    let rootLookup = this.roots.get(rootKey);
    if (rootLookup === undefined) {
      rootLookup = projectRoot(this.opts.fs, path, { folder, spec });
      this.roots.set(rootKey, rootLookup);
    }
    const root = await rootLookup;
    const key = `${spec.id}\0${root}`;
    const existing = this.entries.get(key);
    if (existing !== undefined || !opts.create) return existing;
    const command = await this.opts.resolveCommand(spec, root);
    if (command === undefined) return undefined;
    // Another call may have made it while the command was looked up.
    const entry = this.entries.get(key) ?? {
      spec,
      root,
      command,
      server: undefined,
      starting: undefined,
      crashes: [],
      lastError: undefined,
      idle: false,
      evicted: false,
      memory: undefined,
      kept: new KeptDiagnostics(),
    };
    this.entries.set(key, entry);
    return entry;
  }

  private recentCrashes(entry: Entry): number {
    const since = Date.now() - CRASH_WINDOW_MS;
    return entry.crashes.filter((t) => t >= since).length;
  }

  private running(entry: Entry, onStarting?: (what: string) => void): Promise<LanguageServer> {
    if (entry.server !== undefined) return Promise.resolve(entry.server);
    if (entry.starting !== undefined) return entry.starting;
    if (this.closed)
      throw new ToolError("language_server_error", "The bridge is shutting down", {
        suggestion: "Call again once the bridge has restarted.",
      });
    if (this.recentCrashes(entry) >= MAX_CRASHES) {
      throw new ToolError(
        "language_server_error",
        `${entry.spec.id} crashed ${MAX_CRASHES} times in ${CRASH_WINDOW_MS / 60_000} minutes and is not started again for now: ${entry.lastError ?? "no message"}`,
        {
          suggestion:
            "Check the server's installation and the project's configuration; getToolCapabilities shows its state. Restarting the bridge resets this.",
        },
      );
    }
    onStarting?.(`starting ${entry.spec.id} for ${entry.root}`);
    entry.starting = this.launch(entry).finally(() => {
      entry.starting = undefined;
    });
    return entry.starting;
  }

  private async launch(entry: Entry): Promise<LanguageServer> {
    const started = Date.now();
    let server: LanguageServer;
    try {
      server = await LanguageServer.start(this.opts.launcher, await this.launchFor(entry), this.opts.hooks);
    } catch (err) {
      entry.crashes.push(Date.now());
      entry.lastError = errorMessage(err);
      throw new ToolError("language_server_error", entry.lastError, {
        suggestion: "Check that the server runs on its own (its --version), and the project's configuration; the next call tries again.",
      });
    }
    entry.server = server;
    entry.idle = false;
    entry.evicted = false;
    this.opts.log("info", `language server ${server.serverName} started for ${entry.root} in ${Date.now() - started} ms`, {
      pid: server.pid,
    });
    void server.exited.then((code) => {
      if (entry.server !== server) return;
      entry.server = undefined;
      entry.crashes.push(Date.now());
      entry.lastError = `exited with code ${code}${server.stderrTail().trim() ? `: ${server.stderrTail().trim().split("\n").slice(-3).join(" | ")}` : ""}`;
      this.opts.log(
        "warning",
        `language server ${entry.spec.id} for ${entry.root} ${entry.lastError}; it is started again on the next call`,
      );
    });
    this.opts.onStarted(server);
    await this.enforceLimits(server);
    this.idleTimer ??= setInterval(() => void this.tick(), Math.max(1000, Math.min(LIMITS_CHECK_MS, this.opts.idleMs / 2)));
    return server;
  }

  private async launchFor(entry: Entry) {
    const initializationOptions = await initializationOptionsFor(entry.spec, entry.root, {
      launcher: this.opts.launcher,
      fs: this.opts.fs,
    });
    return {
      spec: entry.spec,
      root: entry.root,
      command: entry.command.command,
      args: await guardedLaunchArgs(entry.spec, entry.root, {
        fs: this.opts.fs,
        warn: (message) => this.opts.log("warning", message),
        databases: (dirs) => this.opts.onDatabaseFolders?.(dirs),
      }),
      env: this.opts.env,
      initializationOptions,
      settings: await styledSettings(entry.spec, (file) => this.opts.readConfig(`${entry.root}/${file}`)),
      processId: this.opts.processId,
      kept: entry.kept,
    };
  }

  private async tick(): Promise<void> {
    await this.stopIdle();
    await this.enforceLimits();
  }

  private async stopIdle(): Promise<void> {
    const now = Date.now();
    for (const entry of this.entries.values()) {
      const server = entry.server;
      if (server === undefined || server.busy > 0 || now - server.lastUsed < this.opts.idleMs) continue;
      entry.server = undefined;
      entry.idle = true;
      server.retire();
      this.opts.log(
        "info",
        `language server ${entry.spec.id} for ${entry.root} idle for ${Math.round((now - server.lastUsed) / 1000)} s; shut down`,
      );
      await server.stop();
    }
    if (this.runningServers().length === 0) {
      clearInterval(this.idleTimer);
      this.idleTimer = undefined;
    }
  }
}
