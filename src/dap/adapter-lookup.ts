// Where a language's debug adapter is: the first candidate on PATH (or at its absolute path) whose
// check command, when it has one, runs and exits 0; else how to install one.
import type { Runtime } from "../ports/runtime.ts";
import { childEnvironment } from "../security/commands/child-env.ts";
import type { AdapterSpec, DebugLanguage } from "./debug-adapters.ts";

export interface FoundAdapter {
  language: DebugLanguage;
  label: string;
  available: boolean;
  /** The program that runs it, when available. */
  command?: string;
  /** How to install it, when not. */
  install?: string;
}

export async function lookUpAdapter(runtime: Pick<Runtime, "which" | "spawn" | "env">, spec: AdapterSpec): Promise<FoundAdapter> {
  const base = { language: spec.language, label: spec.label };
  for (const candidate of spec.candidates) {
    // which() takes an absolute path as it is (an executable file, or nothing).
    const path = await runtime.which(candidate.command);
    if (path === undefined) continue;
    if (candidate.check !== undefined && !(await runs(runtime, { path, args: candidate.check }))) continue;
    return { ...base, available: true, command: candidate.command };
  }
  return { ...base, available: false, install: spec.install };
}

async function runs(runtime: Pick<Runtime, "spawn" | "env">, check: { path: string; args: readonly string[] }): Promise<boolean> {
  try {
    const child = runtime.spawn(check.path, [...check.args], { cwd: "/", env: childEnvironment(runtime.env, undefined) });
    // Read to the end, not cancelled: a check that prints (dlv version) would die of SIGPIPE.
    void child.stdout.pipeTo(new WritableStream()).catch(() => {});
    void child.stderr.pipeTo(new WritableStream()).catch(() => {});
    return (await child.exited) === 0;
  } catch {
    return false;
  }
}
