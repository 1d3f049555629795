// Looks executables up once per bridge and caches the answer: tools declare `requires.probes`
// and getToolCapabilities explains what is missing. Some executables also need a readiness check
// (gh must be logged in); that answer can change without a restart (`gh auth login`), so it is
// kept only briefly.
import type { Runtime } from "../ports/runtime.ts";
import type { ProbeResult, Probes } from "./context.ts";

/** A local, quick check of a found executable; undefined when it is ready. */
export type ReadinessCheck = () => Promise<ProbeResult["notReady"]>;

const READINESS_TTL_MS = 10_000;

export function createProbes(runtime: Pick<Runtime, "which">, readiness: Readonly<Record<string, ReadinessCheck>> = {}): Probes {
  const cache = new Map<string, Promise<ProbeResult>>();
  const ready = new Map<string, { at: number; result: Promise<ProbeResult["notReady"]> }>();
  const lookUp = (command: string): Promise<ProbeResult> => {
    let result = cache.get(command);
    if (!result) {
      result = runtime.which(command).then(
        (path) => (path ? { available: true, path } : { available: false }),
        () => ({ available: false }),
      );
      cache.set(command, result);
    }
    return result;
  };
  const readinessOf = (command: string, check: ReadinessCheck): Promise<ProbeResult["notReady"]> => {
    const now = Date.now();
    let entry = ready.get(command);
    if (entry === undefined || now - entry.at > READINESS_TTL_MS) {
      entry = {
        at: now,
        result: check().catch((err: unknown) => ({
          reason: `checking ${command} failed: ${String(err)}`,
          suggestion: `Run ${command} in a terminal to see why.`,
        })),
      };
      ready.set(command, entry);
    }
    return entry.result;
  };
  return {
    async get(command) {
      const found = await lookUp(command);
      const check = readiness[command];
      if (!found.available || check === undefined) return found;
      const notReady = await readinessOf(command, check);
      return notReady === undefined ? found : { ...found, notReady };
    },
  };
}
