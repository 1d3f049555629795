// The plugin port: how the core runs a plugin. Each loaded version of a plugin runs in a worker of
// its own (Node: worker_threads with a heap limit; Bun and Deno: a Web Worker module), started by the
// runtime adapter on the bootstrap runtime/shared/plugin-worker.mjs; the core speaks to it with
// messages only (src/plugins/worker-protocol.ts). A new worker has a new module cache, so a reload
// reads every file of the plugin again, and terminating the worker frees the version's modules.

export interface PluginWorkerEvents {
  /** A message the worker posted (structured-cloned; the core checks its shape). */
  onMessage(message: unknown): void;
  /** The worker is gone without being asked: it crashed, or reached its memory limit (`reason` says which). */
  onExit(reason: string): void;
}

export interface PluginWorker {
  /** Posts a message (structured clone); a worker that has ended drops it. */
  post(message: unknown): void;
  /** Stops the worker at once, even in a synchronous loop; resolves when it is gone. onExit is not called. */
  terminate(): Promise<void>;
}

export interface PluginWorkerOptions {
  /** The worker's heap limit, where the runtime can set one (`PluginImporter.memoryLimit`). */
  memoryLimitMb: number;
}

export interface PluginImporter {
  /** Starts a worker on the plugin bootstrap; it posts {t: "ready"} when it listens. */
  startWorker(events: PluginWorkerEvents, opts: PluginWorkerOptions): PluginWorker;
  /** "enforced": a worker past memoryLimitMb is stopped by the runtime; "none": the runtime has no per-worker limit. */
  readonly memoryLimit: "enforced" | "none";
  /** node_modules folders of the bridge's own installation, nearest first (an npm plugin may sit there). */
  readonly bridgeModuleDirs: readonly string[];
}
