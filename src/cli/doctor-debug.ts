// doctor's debug-adapter checks: each language's adapter, found by the same lookup the debugger
// tools use (src/dap/debug-engine.ts: the program on PATH or where the distribution puts it, and a
// run of its check command), with the install command when it is missing. A missing adapter is
// information (·): only that language's debugging is affected.
import { DebugEngine } from "../dap/debug-engine.ts";
import type { Runtime } from "../ports/runtime.ts";
import type { Check } from "./doctor-report.ts";

export async function debugAdapterChecks(runtime: Runtime): Promise<Check[]> {
  const adapters = await new DebugEngine(runtime, { passEnv: [] }).adapters();
  return adapters.map(
    (a): Check =>
      a.available
        ? { area: "debug adapter", status: "ok", summary: `${a.language}: ${a.label} (${a.command})` }
        : {
            area: "debug adapter",
            status: "info",
            summary: `${a.language}: ${a.label} not found; startDebugging cannot debug ${a.language} here`,
            fix: a.install ?? "install it",
          },
  );
}
