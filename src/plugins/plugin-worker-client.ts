// One loaded version of a plugin, running in a worker (runtime/shared/plugin-worker.mjs): starts it,
// has it import the entrypoint and run register(ctx), and sends it its tools' calls. The bridge's
// event loop never waits on the plugin's code, so a handler stuck in a synchronous loop cannot stop
// the bridge: at the call's timeout or cancellation the worker is told to cancel, and a worker that
// does not even answer that within CANCEL_GRACE_MS is terminated (which ends any loop) and replaced
// by a fresh worker of the same version for later calls. A worker that crashes or reaches its memory
// limit is replaced the same way. Replaced by a reload, a version ends once its calls in flight do.
import { errorMessage, ToolError } from "../errors.ts";
import type { ToolContext } from "../capabilities/context.ts";
import type { PluginImporter, PluginWorker } from "../ports/plugin-import.ts";
import type { PluginLogger } from "./plugin-api.ts";
import { serveCapability } from "./plugin-capabilities.ts";
import { type FromWorker, parseFromWorker, type ToWorker, type WireError } from "./worker-protocol.ts";

/** How long a worker has to answer a cancel: one that cannot is stuck in synchronous code. */
export const CANCEL_GRACE_MS = 1000;

type LoadMessage = Extract<ToWorker, { t: "load" }>;

export type LoadResult =
  | { ok: true; tools: Record<string, unknown>[] }
  | { ok: false; stage: "import" | "exports" | "register" | "worker"; message: string };

export interface PluginVersionOptions {
  importer: PluginImporter;
  memoryLimitMb: number;
  load: Omit<LoadMessage, "t">;
  /** The context register(ctx)'s fs / lsp / http run with (its signal ends with the version). */
  registerContext: ToolContext;
  log: PluginLogger;
  /** How long the worker may take to start, import and register. */
  loadTimeoutMs: number;
  /** The version's worker was replaced by a fresh one (it hung past a cancel, crashed, or ran out of memory), during a call of `tool`. */
  onRestart(reason: string, tool: string | undefined): void;
}

interface Call {
  tool: string;
  ctx: ToolContext;
  resolve(value: unknown): void;
  reject(err: Error): void;
  /** ToolErrors answered to the worker's requests of this call, by token, so a handler rethrowing one gives it back as it was. */
  errors: Map<number, ToolError>;
}

/** One worker's life: its messages are read only while it is the version's current worker. */
interface Running {
  worker: PluginWorker;
  loaded?(result: LoadResult): void;
}

export class PluginVersion {
  private running: Running | undefined;
  /** Settles when the current worker has loaded (after a restart, calls wait for it). */
  private ready: Promise<LoadResult> = Promise.resolve({ ok: false, stage: "worker", message: "not started" });
  private readonly calls = new Map<number, Call>();
  /** Calls told to cancel whose worker has not answered yet. */
  private readonly cancelling = new Set<number>();
  /** Calls waiting to be sent until the worker answers its cancels, or is replaced. */
  private responsive: (() => void)[] = [];
  private nextId = 1;
  private nextToken = 1;
  private retired = false;
  private stopped = false;

  constructor(private readonly opts: PluginVersionOptions) {}

  /** Starts the worker and loads the plugin in it; a failure leaves no worker behind. */
  start(): Promise<LoadResult> {
    this.ready = this.startWorker();
    return this.ready;
  }

  /** Runs a tool's call in the worker; rejects with a ToolError for the bridge's own failures. */
  async call(tool: string, input: unknown, ctx: ToolContext): Promise<unknown> {
    // A worker that has not answered a cancel may be stuck: a call sent to it now would fail with it.
    if (this.cancelling.size > 0) await new Promise<void>((resolve) => this.responsive.push(resolve));
    const loaded = await this.ready;
    if (!loaded.ok) throw this.unavailable(tool, `its worker could not be started again: ${loaded.message}`);
    const running = this.running;
    if (running === undefined || this.stopped) throw this.unavailable(tool, "the plugin was stopped");
    const id = this.nextId++;
    return new Promise<unknown>((resolve, reject) => {
      const call: Call = { tool, ctx, resolve, reject, errors: new Map() };
      this.calls.set(id, call);
      const onAbort = () => this.cancel(id, running, (ctx.signal.reason as { name?: unknown } | undefined)?.name === "TimeoutError");
      if (ctx.signal.aborted) return onAbort();
      ctx.signal.addEventListener("abort", onAbort, { once: true });
      call.resolve = (value) => {
        ctx.signal.removeEventListener("abort", onAbort);
        resolve(value);
      };
      call.reject = (err) => {
        ctx.signal.removeEventListener("abort", onAbort);
        reject(err);
      };
      running.worker.post({ t: "call", id, tool, input } satisfies ToWorker);
    }).finally(() => {
      this.calls.delete(id);
      if (this.retired && this.calls.size === 0) void this.stop();
    });
  }

  /** Replaced by a newer version: ends once the calls in flight have ended. */
  retire(): void {
    this.retired = true;
    if (this.calls.size === 0) void this.stop();
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    const running = this.running;
    this.running = undefined;
    this.failCalls("the plugin was stopped");
    this.cancelling.clear();
    this.wakeWaiting();
    await running?.worker.terminate();
  }

  private async startWorker(): Promise<LoadResult> {
    const running: Running = {
      worker: this.opts.importer.startWorker(
        {
          onMessage: (message) => this.onMessage(running, message),
          onExit: (reason) => this.onExit(running, reason),
        },
        { memoryLimitMb: this.opts.memoryLimitMb },
      ),
    };
    this.running = running;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const result = await new Promise<LoadResult>((resolve) => {
      running.loaded = resolve;
      timer = setTimeout(
        () => resolve({ ok: false, stage: "worker", message: `took longer than ${this.opts.loadTimeoutMs / 1000} s` }),
        this.opts.loadTimeoutMs,
      );
    });
    clearTimeout(timer);
    running.loaded = undefined;
    if (!result.ok && this.running === running) {
      this.running = undefined;
      await running.worker.terminate();
    }
    return result;
  }

  private onMessage(running: Running, raw: unknown): void {
    if (this.running !== running) return;
    const message = parseFromWorker(raw);
    if (message === undefined) return;
    switch (message.t) {
      case "ready":
        running.worker.post({ t: "load", ...this.opts.load } satisfies ToWorker);
        return;
      case "registered":
        running.loaded?.({ ok: true, tools: message.tools });
        return;
      case "loadFailed":
        running.loaded?.({ ok: false, stage: message.stage, message: message.message });
        return;
      case "result":
        this.settle(message);
        return;
      case "cancelled":
        this.cancelling.delete(message.id);
        if (this.cancelling.size === 0) this.wakeWaiting();
        return;
      case "request":
        void this.serve(running, message);
        return;
      case "log":
        this.opts.log[message.level](message.message, message.fields);
        return;
      case "callLog":
        this.calls.get(message.call)?.ctx.log(message.level, message.message, message.data);
        return;
      case "progress": {
        const { total, message: text } = message;
        this.calls.get(message.call)?.ctx.progress(message.progress, {
          ...(total === undefined ? {} : { total }),
          ...(text === undefined ? {} : { message: text }),
        });
      }
    }
  }

  private settle(message: Extract<FromWorker, { t: "result" }>): void {
    const call = this.calls.get(message.id);
    if (call === undefined) return;
    if (message.ok) call.resolve(message.value);
    else call.reject(this.errorOf(call, message.error));
  }

  /** What a handler threw, as the bridge answers it: an error the bridge gave it, a toolError, or the plugin's failure. */
  private errorOf(call: Call, error: WireError): Error {
    const original = error.token === undefined ? undefined : call.errors.get(error.token);
    if (original !== undefined) return original;
    if (error.toolError === true)
      return new ToolError("tool_failed", error.message, { suggestion: error.suggestion || "See the plugin's documentation." });
    return new Error(error.message);
  }

  private async serve(running: Running, request: Extract<FromWorker, { t: "request" }>): Promise<void> {
    const call = request.call === undefined ? undefined : this.calls.get(request.call);
    const reply = (message: ToWorker) => {
      if (this.running === running) running.worker.post(message);
    };
    if (request.call !== undefined && call === undefined) {
      return reply({ t: "reply", id: request.id, ok: false, error: { message: "the call this request belongs to has ended" } });
    }
    const ctx = call?.ctx ?? this.opts.registerContext;
    try {
      const value = await serveCapability(ctx, request, { exec: call !== undefined });
      reply({ t: "reply", id: request.id, ok: true, value });
    } catch (err) {
      const error: WireError = { message: errorMessage(err) };
      if (err instanceof ToolError) {
        error.suggestion = err.suggestion;
        if (call !== undefined) {
          error.token = this.nextToken++;
          call.errors.set(error.token, err);
        }
      }
      reply({ t: "reply", id: request.id, ok: false, error });
    }
  }

  /** Tells the worker; one that does not answer within the grace is stuck, and is replaced. */
  private cancel(id: number, running: Running, timeout: boolean): void {
    const call = this.calls.get(id);
    if (call === undefined) return;
    this.cancelling.add(id);
    running.worker.post({ t: "cancel", id, timeout } satisfies ToWorker);
    // The caller has its answer (the dispatcher answers a timeout or a cancel itself).
    call.reject(new ToolError("cancelled", `${call.tool} was cancelled`, { suggestion: "Call it again if the result is still needed." }));
    setTimeout(() => {
      if (!this.cancelling.delete(id) || this.running !== running) return;
      this.restart(running, `${call.tool} kept its worker busy past its cancel by ${CANCEL_GRACE_MS} ms (a synchronous loop?)`, call.tool);
    }, CANCEL_GRACE_MS);
  }

  private onExit(running: Running, reason: string): void {
    if (this.running !== running) return;
    if (running.loaded !== undefined) running.loaded({ ok: false, stage: "worker", message: `its worker stopped: ${reason}` });
    else this.restart(running, `its worker stopped: ${reason}`, [...this.calls.values()][0]?.tool);
  }

  /** Ends the worker (and any loop in it), fails its calls, and starts a fresh one of the same version. */
  private restart(running: Running, reason: string, tool: string | undefined): void {
    if (this.stopped || this.running !== running) return;
    this.running = undefined;
    this.cancelling.clear();
    this.failCalls(reason);
    void running.worker.terminate();
    this.opts.onRestart(reason, tool);
    if (this.retired) void this.stop();
    else this.ready = this.startWorker();
    this.wakeWaiting();
  }

  private wakeWaiting(): void {
    for (const wake of this.responsive.splice(0)) wake();
  }

  private failCalls(reason: string): void {
    for (const call of [...this.calls.values()]) call.reject(this.unavailable(call.tool, reason));
  }

  private unavailable(tool: string, reason: string): ToolError {
    return new ToolError("tool_failed", `${tool} (plugin ${this.opts.load.plugin.name}) failed: ${reason}`, {
      suggestion: "The plugin's worker was restarted; call the tool again, or fix the plugin (the bridge log has the details).",
    });
  }
}
