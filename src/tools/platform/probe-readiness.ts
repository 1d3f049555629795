// The readiness checks of executables that can be found and still not work: gh without a login.
// Each runs through the same Exec as tools (no shell, no bridge secrets), with a short timeout.
import { createExec, type ExecDeps } from "../../capabilities/exec/exec.ts";
import { GH_ENV } from "../../services/github/gh-environment.ts";
import { ghLoginProblem } from "../../services/github/gh-auth.ts";
import type { ReadinessCheck } from "../../capabilities/probes.ts";

const CHECK_TIMEOUT_MS = 10_000;

export function probeReadiness(deps: ExecDeps): Record<string, ReadinessCheck> {
  // Not tied to any call: a check is shared by every caller for a while (src/capabilities/probes.ts).
  const gh = createExec(deps, { declared: ["gh"], signal: new AbortController().signal });
  return {
    gh: () =>
      ghLoginProblem({
        env: deps.runtime.env,
        run: (args, opts) => gh.run("gh", { args, env: GH_ENV, timeoutMs: CHECK_TIMEOUT_MS, ...opts }),
      }),
  };
}
