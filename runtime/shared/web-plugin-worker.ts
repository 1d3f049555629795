// A plugin's worker on Bun and Deno: a Web Worker module on the bootstrap. Neither runtime sets a
// per-worker heap limit (Bun's and Deno's Worker take no resource limits), so memoryLimit is "none"
// there: a plugin that allocates without bound grows the bridge's process (README, Plugins).
import type { PluginWorker, PluginWorkerEvents } from "../../src/ports/plugin-import.ts";

export function startWebPluginWorker(bootstrap: URL, events: PluginWorkerEvents): PluginWorker {
  const worker = new Worker(bootstrap.href, { type: "module" });
  let ended = false;
  const end = (reason: string) => {
    if (ended) return;
    ended = true;
    worker.terminate();
    events.onExit(reason);
  };
  worker.addEventListener("message", (event) => events.onMessage(event.data));
  worker.addEventListener("error", (event) => {
    // Unhandled, Deno would end the whole process for an error in a worker.
    event.preventDefault();
    end(`it crashed (${event.message})`);
  });
  worker.addEventListener("messageerror", () => end("it posted a message that could not be read"));
  return {
    post: (message) => {
      if (!ended) worker.postMessage(message);
    },
    terminate: async () => {
      ended = true;
      worker.terminate();
    },
  };
}
