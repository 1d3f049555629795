// Looks executables up once per bridge and caches the answer: tools declare `requires.probes`
// and getToolCapabilities explains what is missing.
import type { Runtime } from "../runtime.ts";
import type { ProbeResult, Probes } from "./context.ts";

export function createProbes(runtime: Pick<Runtime, "which">): Probes {
  const cache = new Map<string, Promise<ProbeResult>>();
  return {
    get(command) {
      let result = cache.get(command);
      if (!result) {
        result = runtime.which(command).then(
          (path) => (path ? { available: true, path } : { available: false }),
          () => ({ available: false }),
        );
        cache.set(command, result);
      }
      return result;
    },
  };
}
