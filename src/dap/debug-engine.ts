// The debugger engine: finds each language's debug adapter, starts it in a process group of its own
// with the environment runCommand's programs get (the user's secrets dropped: the program it runs is
// the project's code, chosen by the model), and walks DAP's start-up sequence:
// initialize -> launch (answered only after configurationDone by some adapters) -> initialized event
// -> breakpoints -> configurationDone. Sessions are owned by the caller (the debug toolset's state).
import type { DebugProtocol } from "@vscode/debugprotocol";
import type { Runtime } from "../ports/runtime.ts";
import { childEnvironment } from "../security/commands/child-env.ts";
import { openLink } from "./adapter-link.ts";
import { DapConnection, DapRequestError } from "./dap-connection.ts";
import { DEBUG_ADAPTERS, type AdapterSpec, type DebugLanguage, type LaunchRequestInput } from "./debug-adapters.ts";
import { DebugSession } from "./debug-session.ts";
import { NodeInspectorAdapter } from "./node-inspector/node-adapter.ts";
import { isInside } from "../lib/paths/posix-path.ts";
import type { ProcessFacts } from "../ports/processes.ts";
import { AdapterRefusal } from "./adapter-refusal.ts";
import { checkListener } from "./process-place.ts";
import { openInspector } from "./node-inspector/open-inspector.ts";
import { endTree, withAbort } from "./adapter-tree.ts";
import { isGoExecutable } from "./go-executable.ts";
import { lookUpAdapter, type FoundAdapter } from "./adapter-lookup.ts";

export type EngineRuntime = Pick<Runtime, "spawn" | "which" | "env" | "fs" | "tcp" | "paths" | "webSocketClient" | "processes">;

export interface StartOptions {
  id: string;
  language: DebugLanguage;
  launch: LaunchRequestInput;
  /** Called between the initialized event and configurationDone: set breakpoints here. */
  configure(session: DebugSession): Promise<void>;
  signal?: AbortSignal;
}

export interface AttachOptions {
  id: string;
  language: DebugLanguage;
  /** A loopback port the program's debugger listens on (named by the user's launch.json attach configuration). */
  port: number;
  /** Absolute, jailed: where the program's source maps are looked for. */
  cwd: string;
  /** The workspace folders: the attached program must run there (its script for Node, its working directory for Python). */
  roots: readonly string[];
  /** Absolute, jailed: the executable whose symbols a C/C++ program under a remote stub is read with. */
  program?: string | undefined;
  /** The bridge opened the program's debugger (a Node inspector, by SIGUSR1): detaching closes it. */
  closeInspector?: boolean;
  configure(session: DebugSession): Promise<void>;
  signal?: AbortSignal;
}

export interface ProcessAttachOptions {
  id: string;
  language: DebugLanguage;
  /** A process the attach rule accepted (src/tools/debug/attach-pid.ts). */
  pid: number;
  executable: string | undefined;
  /** Absolute, jailed: the adapter's working directory, and where a Node program's source maps are looked for. */
  cwd: string;
  roots: readonly string[];
  configure(session: DebugSession): Promise<void>;
  signal?: AbortSignal;
}

/** Longest wait for the adapter to get through its start-up sequence. */
const START_TIMEOUT_MS = 30_000;

export class DebugEngine {
  private readonly found = new Map<DebugLanguage, Promise<FoundAdapter>>();

  constructor(
    private readonly runtime: EngineRuntime,
    private readonly opts: { passEnv: readonly string[] },
  ) {}

  /** Each language's adapter, looked up once. */
  adapters(): Promise<FoundAdapter[]> {
    return Promise.all((Object.keys(DEBUG_ADAPTERS) as DebugLanguage[]).map((l) => this.adapter(l)));
  }

  /**
   * Each language's adapter as far as its lookup got within `ms` (a lookup runs the adapter's check,
   * a second or more on a loaded machine): one still running is reported as `checking`, not guessed.
   */
  async adaptersWithin(ms: number): Promise<(FoundAdapter & { checking?: true })[]> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), ms);
    });
    const languages = Object.keys(DEBUG_ADAPTERS) as DebugLanguage[];
    const answers = await Promise.all(languages.map((l) => Promise.race([this.adapter(l), late])));
    clearTimeout(timer);
    return languages.map((language, i) => {
      const spec = DEBUG_ADAPTERS[language];
      return answers[i] ?? { language, label: spec.label, available: false, install: spec.install, checking: true };
    });
  }

  adapter(language: DebugLanguage): Promise<FoundAdapter> {
    let found = this.found.get(language);
    if (found === undefined) {
      found = lookUpAdapter(this.runtime, DEBUG_ADAPTERS[language]);
      this.found.set(language, found);
    }
    return found;
  }

  /** Starts the adapter and the program; rejects with an Error saying what failed (the adapter's stderr included). */
  async start(opts: StartOptions): Promise<DebugSession> {
    const spec = DEBUG_ADAPTERS[opts.language];
    const { path, args: adapterArgs } = await this.adapterCommand(spec);
    const env = childEnvironment(this.runtime.env, undefined, { dropSecrets: true, passEnv: this.opts.passEnv });
    const args = spec.launchArguments(opts.launch, { command: path, tmp: this.runtime.paths.tmp });
    if (spec.inProcess === "node-inspector") {
      const session = this.inProcessSession(opts.id, spec, { node: path, env });
      return this.begin(session, spec, { configure: opts.configure, request: "launch", args, signal: opts.signal });
    }
    const { configure, signal } = opts;
    return this.spawned(opts.id, spec, {
      command: [path, ...adapterArgs],
      env,
      cwd: opts.launch.cwd,
      request: "launch",
      args,
      configure,
      signal,
    });
  }

  /**
   * Attaches to a running process by its id: delve and lldb trace it (ptrace), Node opens its
   * inspector on SIGUSR1. Stopping the session detaches and leaves the process running.
   */
  async attachProcess(opts: ProcessAttachOptions): Promise<DebugSession> {
    const spec = DEBUG_ADAPTERS[opts.language];
    if (spec.inProcess === "node-inspector") {
      if (this.runtime.processes === undefined) throw new Error("This runtime cannot signal other processes");
      const { port, opened } = await openInspector(this.runtime.processes, opts.pid, { signal: opts.signal });
      return this.attach({ ...opts, port, closeInspector: opened });
    }
    if (spec.processAttach === undefined) {
      throw new AdapterRefusal("not_supported", `${spec.label} does not attach to a process by its id`, {
        suggestion: "Start the program with startDebugging.",
      });
    }
    return this.attachSpawned(spec, opts, spec.processAttach({ pid: opts.pid, executable: opts.executable }));
  }

  /** Facts of another process of the machine, for the attach rule; undefined off Linux or when it is gone. */
  async processFacts(pid: number): Promise<ProcessFacts | undefined> {
    return this.runtime.processes?.describe(pid);
  }

  /** The bridge's own process id and Yama's ptrace scope (undefined: no Yama); undefined where processes cannot be read (off Linux). */
  async tracing(): Promise<{ bridgePid: number; ptraceScope: number | undefined } | undefined> {
    const processes = this.runtime.processes;
    return processes === undefined ? undefined : { bridgePid: processes.ownPid, ptraceScope: await processes.ptraceScope() };
  }

  /** Whether the file is a Go program (its build information, which every Go 1.13+ executable carries). */
  isGoProgram(path: string): Promise<boolean> {
    return isGoExecutable(this.runtime.fs, path);
  }

  /** An attach through an adapter process of the bridge's (delve, lldb): it detaches when the session stops. */
  private async attachSpawned(
    spec: AdapterSpec,
    opts: Pick<ProcessAttachOptions, "id" | "cwd" | "configure" | "signal">,
    args: Record<string, unknown>,
  ): Promise<DebugSession> {
    const { path, args: adapterArgs } = await this.adapterCommand(spec);
    const env = childEnvironment(this.runtime.env, undefined, { dropSecrets: true, passEnv: this.opts.passEnv });
    const { cwd, configure, signal } = opts;
    return this.spawned(opts.id, spec, {
      command: [path, ...adapterArgs],
      env,
      cwd,
      request: "attach",
      args,
      attached: true,
      haltsUntilDone: true,
      configure,
      signal,
    });
  }

  private async adapterCommand(spec: AdapterSpec): Promise<{ path: string; args: readonly string[] }> {
    const found = await this.adapter(spec.language);
    if (found.command === undefined) throw new Error(`No ${spec.label} on this machine: ${spec.install}`);
    const candidate = spec.candidates.find((c) => c.command === found.command) ?? spec.candidates[0];
    const path = found.command.startsWith("/") ? found.command : await this.runtime.which(found.command);
    if (path === undefined || candidate === undefined) throw new Error(`${found.command} is no longer on PATH`);
    return { path, args: candidate.args };
  }

  /** A session with an adapter process of its own: started, linked, and through its start-up sequence. */
  private async spawned(
    id: string,
    spec: AdapterSpec,
    opts: {
      command: [string, ...string[]];
      env: Record<string, string>;
      cwd: string;
      request: "launch" | "attach";
      args: Record<string, unknown>;
      attached?: boolean;
      haltsUntilDone?: boolean;
      configure(session: DebugSession): Promise<void>;
      signal?: AbortSignal | undefined;
    },
  ): Promise<DebugSession> {
    const [path, ...adapterArgs] = opts.command;
    const child = this.runtime.spawn(path, adapterArgs, { cwd: opts.cwd, env: opts.env, stdin: "pipe", processGroup: true });
    const link = await openLink(child, spec, { tcp: this.runtime.tcp, timeoutMs: START_TIMEOUT_MS, signal: opts.signal }).catch(
      async (err: unknown) => {
        await endTree(child);
        throw new Error(`${spec.label} could not be reached: ${err instanceof Error ? err.message : String(err)}`);
      },
    );
    const connection = new DapConnection(link.io);
    // A program started from an adapter's terminal request would run outside the command rules: refused.
    connection.onReverseRequest("runInTerminal", () => {
      throw new Error("The bridge runs programs in its own console only (runInTerminal is refused)");
    });
    const session = new DebugSession(id, {
      adapter: spec,
      connection,
      attached: opts.attached === true,
      adapterProcess: { pid: child.pid, exited: child.exited, kill: () => endTree(child) },
    });
    link.forwardOutput((category, text) => session.output.append(category, text));
    try {
      await withAbort(this.handshake(session, spec, opts), opts.signal);
      return session;
    } catch (err) {
      await session.stop().catch(() => {});
      const tail = link.stderrTail().trim();
      // The caller's own failure (a breakpoint it could not place, say) goes back as it was.
      if (!(err instanceof DapRequestError) && tail === "") throw err;
      const message = err instanceof DapRequestError || err instanceof Error ? err.message : String(err);
      throw new Error(tail === "" ? message : `${message}\nadapter stderr: ${tail.slice(-1000)}`);
    }
  }

  /**
   * Attaches to a program the user started with its debugger listening on a loopback port (debugpy's
   * --listen, node --inspect). Stopping the session detaches: the program goes on running.
   */
  async attach(opts: AttachOptions): Promise<DebugSession> {
    const spec = DEBUG_ADAPTERS[opts.language];
    if (spec.remoteStub !== undefined) {
      await checkListener(this.runtime.processes, opts.port, { roots: opts.roots });
      return this.attachSpawned(spec, opts, spec.remoteStub({ port: opts.port, program: opts.program }));
    }
    if (spec.attachArguments === undefined)
      throw new Error(`${spec.label} cannot attach here; start the program with startDebugging instead`);
    const args = spec.attachArguments({ port: opts.port, cwd: opts.cwd, roots: opts.roots, closeInspector: opts.closeInspector === true });
    if (spec.inProcess === "node-inspector") {
      const session = this.inProcessSession(opts.id, spec, { node: undefined, env: {} });
      return this.begin(session, spec, { configure: opts.configure, request: "attach", args, signal: opts.signal });
    }
    if (this.runtime.tcp === undefined) throw new Error("This runtime gives the bridge no TCP connections");
    await checkListener(this.runtime.processes, opts.port, { roots: opts.roots });
    // Loopback only, whatever the configuration said: the rule is checked before, and kept here.
    const socket = await this.runtime.tcp.connect("127.0.0.1", opts.port, { timeoutMs: START_TIMEOUT_MS });
    const connection = new DapConnection({ readable: socket.readable, writable: socket.writable });
    const session = new DebugSession(opts.id, {
      adapter: spec,
      connection,
      attached: true,
      adapterProcess: { pid: undefined, exited: connection.closed.then(() => 0), kill: async () => socket.close() },
    });
    await this.begin(session, spec, { configure: opts.configure, request: "attach", args, signal: opts.signal });
    // Checked again by the pid the adapter names (delve's remote server names none): a program working elsewhere is detached from at once.
    if (session.programPid === undefined) return session;
    const where = await this.runtime.fs.realpath(`/proc/${session.programPid}/cwd`).catch(() => undefined);
    if (where === undefined || !opts.roots.some((root) => isInside(where, root))) {
      await session.stop();
      throw new AdapterRefusal(
        "command_refused",
        `The program on 127.0.0.1:${opts.port} works in ${where ?? "a directory the bridge cannot see"}, outside the workspace`,
        { suggestion: "Attach reaches only the workspace's programs: start it from the workspace." },
      );
    }
    return session;
  }

  /** The Node debugger: the adapter runs in the bridge, and the process it ends is the program's own (none when attached). */
  private inProcessSession(id: string, spec: AdapterSpec, found: { node: string | undefined; env: Record<string, string> }): DebugSession {
    const adapter = new NodeInspectorAdapter({
      spawn: (cmd, args, spawnOpts) => this.runtime.spawn(cmd, args, spawnOpts),
      webSocket: this.runtime.webSocketClient,
      fs: this.runtime.fs,
      node: found.node,
      env: found.env,
      endTree,
      timeoutMs: START_TIMEOUT_MS,
    });
    const connection = new DapConnection(adapter.endpoint.io);
    return new DebugSession(id, {
      adapter: spec,
      connection,
      attached: found.node === undefined,
      adapterProcess: {
        get pid() {
          return adapter.pid;
        },
        // Told once the session has read the exit event, so it ends with the program's exit code.
        exited: adapter.finished.then(async (code) => {
          await connection.closed;
          return code;
        }),
        kill: () => adapter.kill(),
      },
    });
  }

  /** The start-up sequence; on a failure the session is stopped (its processes ended) before the error goes on. */
  private async begin(
    session: DebugSession,
    spec: AdapterSpec,
    opts: {
      configure(session: DebugSession): Promise<void>;
      request: "launch" | "attach";
      args: Record<string, unknown>;
      signal?: AbortSignal | undefined;
    },
  ): Promise<DebugSession> {
    try {
      await withAbort(this.handshake(session, spec, opts), opts.signal);
      return session;
    } catch (err) {
      await session.stop().catch(() => {});
      throw err instanceof Error ? err : new Error(String(err));
    }
  }

  private async handshake(
    session: DebugSession,
    spec: AdapterSpec,
    opts: {
      configure(session: DebugSession): Promise<void>;
      request: "launch" | "attach";
      args: Record<string, unknown>;
      haltsUntilDone?: boolean;
    },
  ): Promise<void> {
    const { connection } = session;
    const initialized = new Promise<void>((resolve) => {
      const off = connection.onEvent((e) => {
        if (e.event === "initialized") {
          off();
          resolve();
        }
      });
    });
    const init = await connection.request<DebugProtocol.InitializeResponse>(
      "initialize",
      {
        clientID: "claude-ide-bridge",
        clientName: "claude-ide-bridge",
        adapterID: spec.adapterId,
        linesStartAt1: true,
        columnsStartAt1: true,
        pathFormat: "path",
        supportsVariableType: true,
        supportsRunInTerminalRequest: false,
      } satisfies DebugProtocol.InitializeRequestArguments,
      { timeoutMs: START_TIMEOUT_MS },
    );
    session.capabilities = { ...init.body, ...spec.unadvertised, ...session.capabilities };
    const launched = connection.request(opts.request, opts.args, { timeoutMs: spec.startTimeoutMs ?? START_TIMEOUT_MS });
    // The launch may fail before initialized ever comes: whichever settles first decides.
    await Promise.race([initialized, launched]);
    await initialized;
    await opts.configure(session);
    // A traced process is halted by the attach itself until configurationDone lets it run: a stop told
    // before then (lldb reports a remote stub's halt as one) is that halt, not the program's.
    if (opts.haltsUntilDone === true && session.runState.kind === "stopped") session.markRunning();
    if (session.capabilities.supportsConfigurationDoneRequest === true) await connection.request("configurationDone", {});
    await launched;
    if (session.runState.kind === "starting") session.markRunning();
  }
}
