// A plugin's worker on Node: a worker_threads Worker on the bootstrap, with V8's heap limits set, so
// a plugin that allocates without bound is stopped by V8 (ERR_WORKER_OUT_OF_MEMORY) and the
// bridge's own heap is untouched. It gets an empty environment: a plugin never sees the bridge's
// (its token, the user's secrets), as the plugin API promises.
import { Worker } from "node:worker_threads";
import type { PluginWorker, PluginWorkerEvents, PluginWorkerOptions } from "../../src/ports/plugin-import.ts";

export function startNodePluginWorker(bootstrap: URL, events: PluginWorkerEvents, opts: PluginWorkerOptions): PluginWorker {
  const worker = new Worker(bootstrap, {
    env: {},
    // Not the bridge's own flags (a development loader such as tsx would load in every worker): the bootstrap is plain JavaScript.
    execArgv: [],
    resourceLimits: { maxOldGenerationSizeMb: opts.memoryLimitMb },
  });
  let asked = false;
  let reason: string | undefined;
  worker.on("message", (message: unknown) => events.onMessage(message));
  worker.on("error", (err: Error & { code?: string }) => {
    reason =
      err.code === "ERR_WORKER_OUT_OF_MEMORY"
        ? `it reached its memory limit (${opts.memoryLimitMb} MB of heap)`
        : `it crashed (${err.message})`;
  });
  worker.on("exit", (code) => {
    if (!asked) events.onExit(reason ?? `it exited (code ${code})`);
  });
  return {
    post: (message) => {
      if (!asked) worker.postMessage(message);
    },
    terminate: async () => {
      asked = true;
      await worker.terminate();
    },
  };
}
