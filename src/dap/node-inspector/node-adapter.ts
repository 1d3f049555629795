// The Node debugger: a DAP adapter inside the bridge that runs the program under Node's own inspector
// (`node --inspect-brk=127.0.0.1:0`) and translates DAP to the Chrome DevTools Protocol, so the debug
// tools drive Node exactly as they drive debugpy or delve. No DAP adapter for Node is published on
// the npm registry (vscode-js-debug ships as a VS Code extension), and the inspector comes with every
// Node. The inspector listens on loopback only, and its URL carries a random id that Node prints
// on the program's stderr alone (--inspect-publish-uid=stderr: no /json listing on its port), so
// nothing but the bridge can find it; the program lives exactly as long as the session.
import type { DebugProtocol } from "@vscode/debugprotocol";
import type { Fs } from "../../ports/fs.ts";
import type { Child, SpawnOptions } from "../../ports/spawn.ts";
import type { WebSocketConnector } from "../../ports/websocket.ts";
import { AdapterRefusal } from "../adapter-refusal.ts";
import { InProcessEndpoint } from "../in-process-endpoint.ts";
import { CdpClient } from "./cdp-client.ts";
import { NodeBreakpoints } from "./node-breakpoints.ts";
import { PausedProgram, type Pause } from "./paused-program.ts";
import { ProgramOutput } from "./program-output.ts";
import { WorkerThreads } from "./worker-threads.ts";
import { isInside } from "../../lib/paths/posix-path.ts";
import { inspectorTarget } from "./inspector-url.ts";
import { firstLine, valueText, type RemoteObject } from "./remote-values.ts";
import { scriptPath, SourceMapStore } from "./source-map-store.ts";
import { capabilities } from "./node-capabilities.ts";

export interface NodeAdapterDeps {
  spawn(cmd: string, args: string[], opts: SpawnOptions): Child;
  webSocket: WebSocketConnector | undefined;
  fs: Pick<Fs, "readdir" | "readTextFile" | "stat">;
  /** Absolute path of the node executable (none when attaching to a running program). */
  node: string | undefined;
  /** The program's environment before the launch's own variables (the user's secrets already dropped). */
  env: Readonly<Record<string, string>>;
  endTree(child: Child): Promise<void>;
  timeoutMs: number;
}

interface LaunchArguments {
  program: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  stopOnEntry: boolean;
}

type RunCommand = "continue" | "next" | "stepIn" | "stepOut" | "pause";

const CDP_RUN: Record<RunCommand, string> = {
  continue: "Debugger.resume",
  next: "Debugger.stepOver",
  stepIn: "Debugger.stepInto",
  stepOut: "Debugger.stepOut",
  pause: "Debugger.pause",
};
/** How much the program wrote so far, read when it stops (pipes and TTYs count; a file does not). */
const BYTES_WRITTEN = "[globalThis.process?.stdout?.bytesWritten ?? 0, globalThis.process?.stderr?.bytesWritten ?? 0]";
const OUTPUT_WAIT_MS = 2000;
const TYPESCRIPT = /\.[cm]?tsx?$/;
/** Node's own (undocumented, since v0.x) way to close its inspector from inside the program. */
const CLOSE_INSPECTOR = "globalThis.process?._debugEnd?.()";

export class NodeInspectorAdapter {
  readonly endpoint: InProcessEndpoint;
  private child: Child | undefined;
  private cdp: CdpClient | undefined;
  private output: ProgramOutput | undefined;
  private breakpoints: NodeBreakpoints | undefined;
  private paused: PausedProgram | undefined;
  private pause: Pause | undefined;
  private onEntryPause: (() => void) | undefined;
  private stopOnEntry = false;
  private attached = false;
  private closeInspector = false;
  private lastCommand: RunCommand | undefined;
  private readonly workers = new WorkerThreads((text) => this.endpoint.event("output", { category: "console", output: text }));
  private mainContext: number | undefined;
  private readonly scripts = new Map<string, { path: string | undefined; url: string; sourceMapUrl: string | undefined }>();
  private readonly loaded = new Set<string>();
  private markFinished: (code: number) => void = () => {};
  /** The program's exit code, once the DAP side has been told it ended. */
  readonly finished = new Promise<number>((resolve) => {
    this.markFinished = resolve;
  });

  constructor(private readonly deps: NodeAdapterDeps) {
    this.endpoint = new InProcessEndpoint(
      (command, args) => this.handle(command, args),
      () => this.cdp?.close("the debug session was stopped"),
    );
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Ends the program's whole process tree. */
  async kill(): Promise<void> {
    this.cdp?.close("the debug session was stopped");
    if (this.child !== undefined) await this.deps.endTree(this.child);
  }

  private async handle(command: string, args: Record<string, unknown>): Promise<unknown> {
    switch (command) {
      case "initialize":
        return capabilities();
      case "launch":
        return this.launch(args as unknown as LaunchArguments);
      case "attach":
        return this.attach(args as unknown as { port: number; cwd: string; roots: string[]; closeInspector?: boolean });
      case "setBreakpoints": {
        const a = args as unknown as DebugProtocol.SetBreakpointsArguments;
        if (a.source.path === undefined) {
          throw new AdapterRefusal("invalid_arguments", "A breakpoint's source needs a path", {
            suggestion: "Give the breakpoint's file by its path.",
          });
        }
        return { breakpoints: await this.ready().breakpoints.setForFile(a.source.path, a.breakpoints ?? []) };
      }
      case "setFunctionBreakpoints": {
        const a = args as unknown as DebugProtocol.SetFunctionBreakpointsArguments;
        const resolve = (name: string) => this.ready().paused.evaluateObject(this.pause, name);
        return { breakpoints: await this.ready().breakpoints.setFunctions(a.breakpoints, resolve) };
      }
      case "setExceptionBreakpoints": {
        const filters = (args as unknown as DebugProtocol.SetExceptionBreakpointsArguments).filters;
        const state = filters.includes("all") ? "all" : filters.includes("uncaught") ? "uncaught" : "none";
        await this.ready().cdp.send("Debugger.setPauseOnExceptions", { state });
        return {};
      }
      case "configurationDone":
        if (this.stopOnEntry) this.endpoint.event("stopped", { reason: "entry", threadId: 1, allThreadsStopped: true });
        else if (!this.attached) await this.run("continue");
        return {};
      case "threads":
        return { threads: [{ id: 1, name: "main" }, ...this.workers.threads()] };
      case "stackTrace":
        return this.ready().paused.stackTrace(this.stopped(), args as unknown as DebugProtocol.StackTraceArguments);
      case "scopes":
        return this.ready().paused.scopes(this.stopped(), (args as unknown as DebugProtocol.ScopesArguments).frameId);
      case "variables":
        return this.ready().paused.variables((args as unknown as DebugProtocol.VariablesArguments).variablesReference);
      case "evaluate":
        return this.ready().paused.evaluate(this.pause, args as unknown as DebugProtocol.EvaluateArguments);
      case "exceptionInfo":
        return this.ready().paused.exceptionInfo(this.pause);
      case "continue":
      case "next":
      case "stepIn":
      case "stepOut":
      case "pause":
        await this.run(command);
        return command === "continue" ? { allThreadsContinued: true } : {};
      case "disconnect":
      case "terminate":
        // An inspector the bridge opened (SIGUSR1) is closed again: left open, any local process could attach.
        if (this.closeInspector) await this.cdp?.send("Runtime.evaluate", { expression: CLOSE_INSPECTOR, silent: true }).catch(() => {});
        this.cdp?.close("the debug session was stopped");
        return {};
      default:
        throw new AdapterRefusal("not_supported", `The Node debugger does not support ${command}`, {
          suggestion: "Use the debug tools' own requests.",
        });
    }
  }

  private async launch(a: LaunchArguments): Promise<Record<string, never>> {
    const connector = this.connector();
    const node = this.deps.node;
    if (node === undefined) throw new Error("No node to launch the program with");
    const maps = new SourceMapStore(this.deps.fs, a.cwd);
    const script = TYPESCRIPT.test(a.program) ? (await maps.forSource(a.program))?.generated : a.program;
    if (script === undefined) {
      throw new AdapterRefusal("invalid_arguments", `No compiled JavaScript with a source map under ${a.cwd} comes from ${a.program}`, {
        suggestion:
          "Compile it with tsc (sourceMap: true, e.g. through runCommand), then start again, or give the compiled .js as program.",
      });
    }
    this.stopOnEntry = a.stopOnEntry;
    // The program's NODE_OPTIONS could load other code or open a second inspector: it runs without.
    const env = Object.fromEntries(Object.entries({ ...this.deps.env, ...a.env }).filter(([k]) => k !== "NODE_OPTIONS"));
    const child = this.deps.spawn(node, ["--inspect-brk=127.0.0.1:0", "--inspect-publish-uid=stderr", script, ...a.args], {
      cwd: a.cwd,
      env,
      processGroup: true,
    });
    this.child = child;
    const output = new ProgramOutput(child);
    this.output = output;
    output.forward((category, text) => this.endpoint.event("output", { category, output: text }));
    void child.exited.then((code) => this.onExit(code, output));
    const failed = child.exited.then((code) => {
      throw new Error(`node exited (code ${code}) before the debugger could attach: ${output.tail.trim().slice(-1000)}`);
    });
    // Only the start-up waits on it: a later exit is the program's normal end.
    failed.catch(() => {});
    const url = await Promise.race([output.url, failed]);
    const cdp = await this.connect(connector, url, maps);
    const entry = new Promise<void>((resolve) => {
      this.onEntryPause = resolve;
    });
    await cdp.send("Runtime.enable");
    await cdp.send("Debugger.enable");
    await this.workers.watch(cdp);
    await cdp.send("Runtime.runIfWaitingForDebugger");
    // --inspect-brk stops before the program's first line: from there its breakpoints are set.
    await Promise.race([entry, failed]);
    this.endpoint.event("process", { name: a.program, systemProcessId: child.pid, isLocalProcess: true, startMethod: "launch" });
    this.endpoint.event("initialized");
    return {};
  }

  /**
   * Attaches to a program the user started with `node --inspect=127.0.0.1:PORT`: its inspector's
   * target list names the WebSocket. The program's stdio is not the bridge's: its console calls are
   * its output. The session ends when the inspector's socket closes (the program exited).
   */
  private async attach(a: { port: number; cwd: string; roots: string[]; closeInspector?: boolean }): Promise<Record<string, never>> {
    const connector = this.connector();
    this.attached = true;
    this.closeInspector = a.closeInspector === true;
    const target = await inspectorTarget(a.port);
    // The launch.json may have come with the repository: only a program of this workspace is attached to.
    if (target.script === undefined || !a.roots.some((root) => isInside(target.script ?? "", root))) {
      throw new AdapterRefusal(
        "command_refused",
        `The Node program on 127.0.0.1:${a.port} runs ${target.script ?? "an unnamed script"}, outside the workspace`,
        { suggestion: "Attach reaches only the workspace's programs: start the program from a workspace script." },
      );
    }
    const cdp = await this.connect(connector, target.url, new SourceMapStore(this.deps.fs, a.cwd));
    cdp.on("Runtime.consoleAPICalled", (p) => {
      const args = (p.args as RemoteObject[] | undefined) ?? [];
      const text = `${args.map((o) => (o.type === "string" ? String(o.value) : valueText(o))).join(" ")}\n`;
      this.endpoint.event("output", {
        category: ["error", "warning", "assert"].includes(String(p.type)) ? "stderr" : "stdout",
        output: text,
      });
    });
    void cdp.closed.then(() => {
      this.endpoint.event("terminated");
      this.endpoint.end();
      this.markFinished(0);
    });
    await cdp.send("Runtime.enable");
    await cdp.send("Debugger.enable");
    await this.workers.watch(cdp);
    // A program started with --inspect-brk waits for its debugger: it runs (and stops) from here on.
    await cdp.send("Runtime.runIfWaitingForDebugger");
    this.endpoint.event("initialized");
    return {};
  }

  private connector(): WebSocketConnector {
    const connector = this.deps.webSocket;
    if (connector === undefined) {
      throw new AdapterRefusal("not_supported", "This runtime gives the bridge no WebSocket client, which the Node inspector needs", {
        suggestion: "Run the bridge on Node 20+, Bun or Deno with its standard runtime adapter.",
      });
    }
    return connector;
  }

  private async connect(connector: WebSocketConnector, url: string, maps: SourceMapStore): Promise<CdpClient> {
    const cdp = await CdpClient.connect(connector, url, { timeoutMs: this.deps.timeoutMs });
    this.cdp = cdp;
    this.breakpoints = new NodeBreakpoints(cdp, maps, { isLoaded: (path) => this.loaded.has(path) });
    this.paused = new PausedProgram(cdp, maps, { script: (id) => this.scripts.get(id) });
    this.listen(cdp);
    return cdp;
  }

  private listen(cdp: CdpClient): void {
    cdp.on("Debugger.scriptParsed", (p) => {
      const url = String(p.url ?? "");
      const path = scriptPath(url);
      if (path !== undefined) this.loaded.add(path);
      const sourceMapUrl = typeof p.sourceMapURL === "string" && p.sourceMapURL !== "" ? p.sourceMapURL : undefined;
      this.scripts.set(String(p.scriptId), { path, url, sourceMapUrl });
    });
    cdp.on("Debugger.paused", (p) => void this.onPaused(p as unknown as Pause));
    cdp.on("Debugger.resumed", () => {
      this.pause = undefined;
      this.paused?.handles.reset();
    });
    cdp.on("Debugger.breakpointResolved", (p) => {
      const bp = this.breakpoints?.resolved(String(p.breakpointId), p.location as { scriptId: string; lineNumber: number });
      if (bp !== undefined) this.endpoint.event("breakpoint", { reason: "changed", breakpoint: bp });
    });
    cdp.on("Runtime.executionContextCreated", (p) => {
      const context = p.context as { id: number; auxData?: { isDefault?: boolean } };
      if (this.mainContext === undefined && context.auxData?.isDefault !== false) this.mainContext = context.id;
    });
    // Node keeps a finished program alive until its debugger lets go: the main context's end is the signal.
    cdp.on("Runtime.executionContextDestroyed", (p) => {
      if (p.executionContextId === this.mainContext) cdp.close("the program finished");
    });
  }

  private async onPaused(pause: Pause): Promise<void> {
    const { cdp, breakpoints, paused } = this.ready();
    this.pause = pause;
    paused.handles.reset();
    const onEntry = this.onEntryPause;
    if (onEntry !== undefined) {
      this.onEntryPause = undefined;
      onEntry();
      return;
    }
    const command = this.lastCommand;
    this.lastCommand = undefined;
    await breakpoints.settled();
    const hitIds = pause.hitBreakpoints ?? [];
    const exception = pause.reason === "exception" || pause.reason === "promiseRejection";
    const wanted = breakpoints.shouldStop(hitIds);
    if (!wanted && !exception && (command === "continue" || command === undefined)) {
      this.lastCommand = command;
      await cdp.send("Debugger.resume").catch(() => {});
      return;
    }
    await this.outputCaughtUp(pause);
    const hits = breakpoints.hits(hitIds);
    // A breakpoint V8 hits as its setBreakpointByUrl answer arrives is not registered yet: still a breakpoint.
    const reason = exception
      ? "exception"
      : hitIds.length > 0
        ? hits.onFunction
          ? "function breakpoint"
          : "breakpoint"
        : command === "next" || command === "stepIn" || command === "stepOut"
          ? "step"
          : pause.reason === "debugCommand"
            ? "breakpoint"
            : "pause";
    const text = exception && pause.data !== undefined ? firstLine(pause.data.description ?? String(pause.data.value)) : undefined;
    this.endpoint.event("stopped", {
      reason,
      threadId: 1,
      allThreadsStopped: true,
      ...(hits.ids.length > 0 ? { hitBreakpointIds: hits.ids } : {}),
      ...(text === undefined ? {} : { text }),
      ...(pause.reason === "debugCommand" ? { description: "debugger statement" } : {}),
    });
  }

  /** What the program wrote before it stopped is read before the stop is told (the tools show it with the stop). */
  private async outputCaughtUp(pause: Pause): Promise<void> {
    const top = pause.callFrames[0];
    if (top === undefined || this.output === undefined) return;
    const answer = await this.ready()
      .cdp.send<{ result: RemoteObject }>("Debugger.evaluateOnCallFrame", {
        callFrameId: top.callFrameId,
        expression: BYTES_WRITTEN,
        returnByValue: true,
        silent: true,
      })
      .catch(() => undefined);
    const value = answer?.result.value;
    if (!Array.isArray(value)) return;
    await this.output.caughtUp({ stdout: Number(value[0]) || 0, stderr: Number(value[1]) || 0 }, OUTPUT_WAIT_MS);
  }

  private async run(command: RunCommand): Promise<void> {
    this.lastCommand = command;
    await this.ready().cdp.send(CDP_RUN[command]);
  }

  private async onExit(code: number, output: ProgramOutput): Promise<void> {
    this.cdp?.close("the program exited");
    let timer: ReturnType<typeof setTimeout> | undefined;
    // A grandchild that inherited the pipes may keep them open: the exit is told after a bounded wait.
    await Promise.race([output.done, new Promise<void>((resolve) => (timer = setTimeout(resolve, OUTPUT_WAIT_MS)))]);
    clearTimeout(timer);
    this.endpoint.event("exited", { exitCode: code });
    this.endpoint.event("terminated");
    this.endpoint.end();
    this.markFinished(code);
  }

  private stopped(): Pause {
    if (this.pause === undefined) throw new Error("The program is running, not stopped");
    return this.pause;
  }

  private ready(): { cdp: CdpClient; breakpoints: NodeBreakpoints; paused: PausedProgram } {
    const { cdp, breakpoints, paused } = this;
    if (cdp === undefined || breakpoints === undefined || paused === undefined) throw new Error("The program has not been launched yet");
    return { cdp, breakpoints, paused };
  }
}
